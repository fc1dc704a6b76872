import { expect, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount } from './helpers.ts';

test('a reader sees the domain actions’ state labelled “Acción no permitida”, a writer gets the switches', async ({ page, context }) => {
  const account = await fullAccount();
  const id = account.items[account.reference];
  await signInContext(context, account, 'luis');
  await page.goto(`/admin/${id}/domain/`);
  const state = page.getByTestId('not-permitted').first();
  await expect(state).toContainText('Acción no permitida');
  await state.hover();
  await expect(page.getByRole('tooltip')).toHaveText('Acción no permitida');
  await page.goto(`/admin/${id}/service/`);
  await expect(page.getByTestId('php-text')).toBeVisible();
  await expect(page.getByTestId('not-permitted')).toHaveCount(2);

  await signInContext(context, account, 'ana');
  await page.goto(`/admin/${id}/domain/`);
  await expect(page.getByRole('switch').first()).toBeVisible();
  await expect(page.getByTestId('not-permitted')).toHaveCount(0);
});

test('text areas show 5 rows, and the surfaces are zinc in both themes', async ({ page, context }) => {
  await signInContext(context, await fullAccount(), 'ana');
  await page.goto('/admin/contact/');
  await expect(page.getByLabel('Mensaje')).toHaveAttribute('rows', '5');
  const surface = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const border = () =>
    page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--mantine-color-gray-3').trim().toLowerCase());
  await page.emulateMedia({ colorScheme: 'light' });
  expect(await border()).toBe('#d4d4d8');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.reload();
  await expect(page.getByLabel('Mensaje')).toBeVisible();
  expect(await surface()).toBe('rgb(39, 39, 42)');
});

test('the fuller contact page, when configured, shows domain and username and sends name and phone', async ({ page, context }) => {
  const account = await fullAccount();
  await signInContext(context, account, 'ana');
  await page.route('**/p247/config/get/**', async (route) => {
    const response = await route.fetch();
    const answer = await response.json();
    answer.data.contactForm = 'full';
    await route.fulfill({ response, json: answer });
  });
  let sent = '';
  await page.route('**/p247/contactmail/', async (route) => {
    sent = route.request().postData() ?? '';
    await route.continue();
  });
  await page.goto('/admin/contact/');
  await expect(page.getByRole('textbox', { name: 'Nombre de dominio' })).toHaveValue(account.realm);
  await expect(page.getByRole('textbox', { name: 'Usuario' })).toHaveValue('ana');
  await page.getByRole('textbox', { name: 'Nombre', exact: true }).fill('Ana Pons');
  await page.getByLabel(/^Teléfono/).fill('+34.600000000');
  await page.getByLabel('Correo electrónico').fill('ana@example.com');
  await page.getByLabel('Asunto').fill('Consulta');
  await page.getByLabel(/^Pregunta/).fill('¿Podéis ampliar mi plan?');
  await page.getByLabel('Acepto la política de privacidad').check();
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(page.locator('.mantine-Notification-root')).toHaveText('Mensaje enviado. Te responderemos lo antes posible');
  const form = new URLSearchParams(sent);
  expect(form.get('name')).toBe('Ana Pons');
  expect(form.get('phone')).toBe('+34.600000000');
});
