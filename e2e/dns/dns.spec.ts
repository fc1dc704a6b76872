import { expect, type Page, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique } from '../support/accounts.ts';

/** One record of each type, as typed in the create dialog. */
const RECORDS: { type: string; zona?: string; fill: Record<string, string>; shows: string }[] = [
  { type: 'A', zona: 'web', fill: { Valor: '203.0.113.10' }, shows: '203.0.113.10' },
  { type: 'AAAA', zona: 'web', fill: { Valor: '2001:db8::10' }, shows: '2001:db8::10' },
  { type: 'ANAME', zona: 'edge', fill: { Valor: 'cdn.example.net' }, shows: 'cdn.example.net.' },
  { type: 'CAA', fill: { 'Entidad certificadora': 'letsencrypt.org' }, shows: '0 issue "letsencrypt.org"' },
  { type: 'CNAME', zona: 'blog', fill: { Valor: 'blogs.example.org' }, shows: 'blogs.example.org.' },
  { type: 'MX', zona: 'correo', fill: { Valor: 'mx.example.net' }, shows: 'mx.example.net.' },
  { type: 'NS', zona: 'delegada', fill: { Valor: 'ns.example.org' }, shows: 'ns.example.org.' },
  { type: 'SRV', fill: { Peso: '5', Puerto: '5060', Destino: 'sip.example.net' }, shows: '5 5060 sip.example.net.' },
  { type: 'TXT', zona: '_dmarc', fill: { Valor: 'v=DMARC1; p=none' }, shows: 'v=DMARC1; p=none' },
];

/** The zone of the running test: a name of its own (see unique). */
let zone = '';

async function openZone(page: Page, role: 'w' | 'r') {
  zone = unique('zona-e2e.es');
  const account = await createE2EAccount({
    users: { w: 'all=write', r: 'all=read' },
    items: [{ reference: zone, domain: true, service: 'normal' }],
  });
  await signInContext(page.context(), account, role);
  await page.goto(`/admin/${account.items[zone]}/service/dns/`);
  await expect(page.getByRole('heading', { level: 1, name: zone })).toBeVisible();
  await expect(page.getByTestId('dns-row').first()).toBeVisible();
}

const search = (page: Page, text: string) => page.getByRole('searchbox').fill(text);

async function zoneMenu(page: Page, item: string) {
  await page.getByRole('button', { name: 'Acciones de la zona' }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

async function choose(page: Page, label: string, option: string) {
  await page.getByRole('dialog').getByRole('combobox', { name: label, exact: true }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function rowMenu(page: Page, name: string, item: string) {
  await page.getByRole('button', { name: `Acciones de ${name}` }).click();
  await page.getByRole('menuitem', { name: item }).click();
}

test('a writer creates one record of each type, edits an SRV and a CAA, deletes, restores defaults and deletes all', async ({ page }) => {
  test.setTimeout(120_000);
  await openZone(page, 'w');
  for (const record of RECORDS) {
    await zoneMenu(page, 'Crear registro');
    const dialog = page.getByRole('dialog');
    await choose(page, 'Tipo', record.type);
    if (record.zona) await dialog.getByRole('textbox', { name: 'Nombre' }).fill(record.zona);
    for (const [label, value] of Object.entries(record.fill)) await dialog.getByRole('textbox', { name: label, exact: true }).fill(value);
    await dialog.getByRole('button', { name: 'Crear', exact: true }).click();
    await expect(dialog).toBeHidden();
    await search(page, record.shows);
    await expect(page.getByTestId('dns-row').filter({ hasText: record.type }).getByTestId('dns-value').first()).toHaveText(record.shows);
  }

  // Edit an SRV: its parts come back split, without the trailing dot.
  await search(page, '_sip');
  await rowMenu(page, `_sip._tcp.${zone} SRV`, 'Editar');
  let dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: 'Destino' })).toHaveValue('sip.example.net');
  await expect(dialog.getByRole('textbox', { name: 'Peso' })).toHaveValue('5');
  await dialog.getByRole('textbox', { name: 'Puerto' }).fill('5061');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('dns-value').first()).toHaveText('5 5061 sip.example.net.');

  // Edit a CAA: the quotes are gone in the form.
  await search(page, 'letsencrypt');
  await rowMenu(page, `${zone} CAA`, 'Editar');
  dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('textbox', { name: 'Entidad certificadora' })).toHaveValue('letsencrypt.org');
  await dialog.getByRole('textbox', { name: 'Entidad certificadora' }).fill('sectigo.com');
  await dialog.getByRole('button', { name: 'Guardar' }).click();
  await expect(dialog).toBeHidden();
  await search(page, 'sectigo');
  await expect(page.getByTestId('dns-value').first()).toHaveText('0 issue "sectigo.com"');

  // Delete one record.
  await search(page, 'blogs.example.org');
  await rowMenu(page, `blog.${zone} CNAME`, 'Eliminar');
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar' }).click();
  await expect(page.getByText('Registro eliminado')).toBeVisible();
  await expect(page.getByTestId('no-results')).toBeVisible();

  // Restore defaults: the provider's seven template records, type filter back to All.
  await search(page, '');
  await zoneMenu(page, 'Restaurar valores por defecto');
  await page.getByRole('dialog').getByRole('button', { name: 'Restaurar valores por defecto' }).click();
  await expect(page.getByText('Se han restaurado los registros por defecto')).toBeVisible();
  await expect(page.getByTestId('dns-row')).toHaveCount(7);

  // Delete all: only the apex NS set is left.
  await zoneMenu(page, 'Eliminar todos');
  await page.getByRole('dialog').getByRole('button', { name: 'Eliminar todos' }).click();
  await expect(page.getByText('Se han eliminado todos los registros eliminables')).toBeVisible();
  await expect(page.getByTestId('dns-row')).toHaveCount(2);
  await expect(page.locator('[data-testid="dns-row"][data-type="NS"]')).toHaveCount(2);
});

test('a read-only user sees the zone but no menu to change it', async ({ page }) => {
  await openZone(page, 'r');
  await expect(page.getByTestId('dns-row')).toHaveCount(7);
  await expect(page.getByRole('button', { name: 'Acciones de la zona' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Acciones de / })).toHaveCount(0);
  // The type filter still works for a reader.
  await page.getByRole('combobox', { name: 'Filtrar por tipo' }).click();
  await page.getByRole('option', { name: 'MX', exact: true }).click();
  await expect(page.getByTestId('dns-row')).toHaveCount(1);
});
