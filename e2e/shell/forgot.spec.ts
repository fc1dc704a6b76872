import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_DATA_DIR } from '../support/env.ts';

/** The messages written to the outbox (no SMTP in the browser tests) that contain `text`. */
function outboxWith(text: string) {
  const dir = path.join(E2E_DATA_DIR, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.filter((file) => readFileSync(path.join(dir, file), 'utf8').includes(text));
}

test('the forgot-password dialog on the sign-in page sends its message once privacy is accepted and the captcha solved', async ({
  page,
}) => {
  const marker = `olvido-${Date.now()}`;
  await page.goto('/login/');
  await page.getByRole('button', { name: '¿Has olvidado la contraseña?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Recuperar el acceso' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Nombre de dominio').fill('cliente.es');
  await dialog.getByLabel('Usuario').fill('ana');
  await dialog.getByLabel(/^Nombre\s*\*?$/).fill('Ana Pérez');
  await dialog.getByLabel('Correo electrónico').fill('ana@example.com');
  await dialog.getByLabel('Mensaje').fill(`No recuerdo mi contraseña (${marker})`);
  const send = dialog.getByRole('button', { name: 'Enviar' });
  await expect(send).toBeDisabled();
  await dialog.getByLabel('Acepto la política de privacidad').check();
  await expect(send).toBeEnabled({ timeout: 20_000 });
  await send.click();

  await expect(dialog).toBeHidden();
  const toast = page.locator('.mantine-Notification-root');
  await expect(toast).toBeVisible();
  // Toasts sit bottom right.
  const box = await toast.boundingBox();
  const viewport = page.viewportSize();
  expect(box && viewport && box.x + box.width > viewport.width / 2 && box.y > viewport.height / 2).toBe(true);
  await expect.poll(() => outboxWith(marker).length).toBe(1);
});
