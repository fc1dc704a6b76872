import { expect, type Locator, type Page, test } from '@playwright/test';
import { addRecords, openZone } from './helpers.ts';

async function createDialog(page: Page, type: string) {
  await page.getByRole('button', { name: 'Acciones de la zona' }).click();
  await page.getByRole('menuitem', { name: 'Crear registro' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Tipo', exact: true }).click();
  await page.getByRole('option', { name: type, exact: true }).click();
  return dialog;
}

/** The message Mantine links to an input (aria-describedby) once it is marked invalid. */
async function expectError(input: Locator, message: RegExp) {
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(input).toHaveAccessibleDescription(message);
}

test('a writer sees an SRV weight, an SRV port, an SRV service and a CAA flag refused under the part that is wrong', async ({ page }) => {
  await openZone(page, 'w');
  let dialog = await createDialog(page, 'SRV');
  const box = (name: string) => dialog.getByRole('textbox', { name, exact: true });
  await box('Peso').fill('70000');
  await box('Puerto').fill('5060');
  await box('Destino').fill('sip.example.net');
  await dialog.getByRole('button', { name: 'Crear', exact: true }).click();
  await expectError(box('Peso'), /^El valor SRV es peso/);
  await expect(box('Destino')).not.toHaveAttribute('aria-invalid', 'true');

  await box('Peso').fill('5');
  await box('Puerto').fill('99999');
  await dialog.getByRole('button', { name: 'Crear', exact: true }).click();
  await expectError(box('Puerto'), /^El valor SRV es peso/);
  await expect(box('Peso')).not.toHaveAttribute('aria-invalid', 'true');

  // A free-text service without its underscore: the server names `zona`, the form shows it at the service.
  await box('Puerto').fill('5060');
  await dialog.getByRole('combobox', { name: 'Servicio', exact: true }).click();
  await page.getByRole('option', { name: 'Otro' }).click();
  await box('Nombre del servicio').fill('xmpp');
  await dialog.getByRole('button', { name: 'Crear', exact: true }).click();
  await expectError(box('Nombre del servicio'), /^El nombre SRV es _servicio\._protocolo/);
  await expect(box('Nombre')).not.toHaveAttribute('aria-invalid', 'true');
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await expect(dialog).toBeHidden();

  dialog = await createDialog(page, 'CAA');
  await box('Indicador').fill('300');
  await box('Entidad certificadora').fill('letsencrypt.org');
  await dialog.getByRole('button', { name: 'Crear', exact: true }).click();
  await expectError(box('Indicador'), /^El indicador CAA es un número entre 0 y 255/);
  await expect(box('Entidad certificadora')).not.toHaveAttribute('aria-invalid', 'true');
});

test('a zone of 5,000 records is asked for one page of 10 at a time, paged and filtered by type and by text on the server', async ({
  page,
}) => {
  test.setTimeout(60_000);
  const account = await openZone(page, 'w');
  await addRecords(account, 4993);
  const asked: { query: URLSearchParams; records: number }[] = [];
  page.on('response', async (response) => {
    const url = new URL(response.url());
    if (!url.pathname.endsWith('/dns/list/')) return;
    // An answer that arrives as the reload starts has no body left to read: its request still counts.
    const body = await response.json().catch((error: Error) => {
      if (/navigated away/.test(error.message)) return null;
      throw error;
    });
    asked.push({ query: url.searchParams, records: body ? body.data.dnss.length : 0 });
  });
  await page.reload();
  const rows = page.getByTestId('dns-row');
  await expect(rows).toHaveCount(10);
  const first = await rows.first().innerText();
  await page.getByRole('button', { name: 'Página siguiente' }).click();
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).not.toHaveText(first);

  await page.getByRole('combobox', { name: 'Filtrar por tipo' }).click();
  await page.getByRole('option', { name: 'MX', exact: true }).click();
  await expect(rows).toHaveCount(10);
  await expect(page.locator('[data-testid="dns-row"]:not([data-type="MX"])')).toHaveCount(0);
  await page.getByRole('searchbox').fill('mx4990');
  await expect(rows).toHaveCount(1);
  await expect(rows.getByTestId('dns-value')).toHaveText('mx4990.example.net.');
  await expect(page.getByRole('button', { name: 'Página siguiente' })).toHaveCount(0);
  // Every answer the screen asked for was one page, never the zone.
  expect(asked.length).toBeGreaterThanOrEqual(4);
  expect(asked.every((a) => a.query.has('page') && a.records <= 10)).toBe(true);
  expect(asked.some((a) => a.query.get('type') === 'MX' && a.query.get('filter') === 'mx4990')).toBe(true);
});

test('on a 360 px phone in Catalan a reader sees whole record types and a table that scrolls sideways instead of breaking names', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await openZone(page, 'r', 'ca');
  await expect(page.getByRole('combobox', { name: 'Filtra per tipus' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Accions de la zona' })).toHaveCount(0);
  const cut = await page.getByTestId('dns-row').evaluateAll((rows) =>
    rows.flatMap((row) => {
      const out: string[] = [];
      const badge = row.querySelector('.mantine-Badge-label');
      if (badge && badge.scrollWidth > badge.clientWidth) out.push(`type ${badge.textContent} cut`);
      // Where the name wraps, the line must end at a dot or a hyphen, never inside "example".
      const name = row.querySelector('[data-testid="dns-name"]');
      const text = name?.textContent ?? '';
      const range = document.createRange();
      let top: number | null = null;
      let at = 0;
      for (const node of name ? [...name.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE) : []) {
        for (let i = 0; i < (node.textContent ?? '').length; i++, at++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const y = range.getBoundingClientRect().top;
          if (top !== null && y > top + 2 && !'.-'.includes(text[at - 1])) out.push(`name ${text} broken before "${text.slice(at)}"`);
          top = y;
        }
      }
      return out;
    }),
  );
  expect(cut).toEqual([]);
});

test("a writer in English who leaves the SRV port empty reads the server's English message under it, not the browser's bubble", async ({
  page,
}) => {
  await openZone(page, 'w', 'en');
  await page.getByRole('button', { name: 'Zone actions' }).click();
  await page.getByRole('menuitem', { name: 'Create record' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('combobox', { name: 'Type', exact: true }).click();
  await page.getByRole('option', { name: 'SRV', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Target', exact: true }).fill('sip.example.net');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expectError(dialog.getByRole('textbox', { name: 'Port', exact: true }), /^The SRV value is weight \(0-65535\), port/);
});
