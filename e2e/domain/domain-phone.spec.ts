import { expect, test } from '@playwright/test';
import { openDomain } from './helpers.ts';

test('on a 360 px phone in Catalan a writer reads the whole auth code button and copies the code', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 780 });
  await openDomain(page, 'w', 'ca');
  const show = page.getByRole('button', { name: /^Mostra Codi d’autorització/ });
  // The label used to be cut to "Mostra Codi d'autorització (auth": nothing of it may be hidden.
  const hidden = await show.evaluate((button) => {
    const label = button.querySelector('.mantine-Button-label') ?? button;
    return label.scrollWidth > label.clientWidth || label.getBoundingClientRect().right > document.documentElement.clientWidth;
  });
  expect(hidden).toBe(false);
  await show.click();
  await expect(page.getByTestId('auth-secret')).toHaveText(/^.{16}$/);
  await page.getByRole('button', { name: 'Copia', exact: true }).click();
  await expect(page.getByText('Copiat')).toBeVisible();
});

test('on a 1280 px desktop each contact title sits beside its Edit button', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await openDomain(page, 'w');
  for (const [type, title] of [
    ['registrant', 'Titular'],
    ['admin', 'Administrativo'],
    ['billing', 'Facturación'],
    ['tech', 'Técnico'],
  ]) {
    const card = page.getByTestId(`contact-${type}`);
    const titleBox = await card.getByText(title, { exact: true }).boundingBox();
    const editBox = await card.getByRole('button', { name: `Editar contacto: ${title}` }).boundingBox();
    // "Administrativo" in a quarter of the card pushed Edit onto a line of its own.
    const middle = (box: typeof titleBox) => (box?.y ?? 0) + (box?.height ?? 0) / 2;
    expect(Math.abs(middle(titleBox) - middle(editBox)), title).toBeLessThan(8);
  }
});
