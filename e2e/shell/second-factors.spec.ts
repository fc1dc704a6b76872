import { expect, type Page, test } from '@playwright/test';
import { newRecoveryCodes } from '../../apps/server/src/modules/factors/recovery.ts';
import { newTotpSecret, totpCode } from '../../apps/server/src/modules/factors/totp.ts';
import { createSession, SESSION_COOKIE } from '../../apps/server/src/modules/session/sessions.ts';
import { createSecrets, loadSecretKey } from '../../apps/server/src/secrets.ts';
import { now } from '../../apps/server/src/store/db.ts';
import { admin, createE2EAccount, signInContext, unique, withE2EStore } from '../support/accounts.ts';
import { E2E_DATA_DIR, E2E_PORT } from '../support/env.ts';
import { fillSignIn, TEST_PASSWORD } from './helpers.ts';

// A Spanish browser: the sign-in page's refusals, sent before any session, follow Accept-Language.
test.use({ locale: 'es-ES' });
// Each test signs in with a captcha solved in the browser, some twice, one also runs the admin CLI.
test.describe.configure({ timeout: 60_000 });

// Enrolment spends the current 30-second step and a sign-in code is accepted one step either side:
// the next step's code is the one to type now.
const nextCode = (secret: string) => totpCode(secret, now() + 30);

const account = () => createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference: unique('dosfactores.es'), domain: true }] });
const LANDED = /\/admin\/\d+\/domain\/$/;

/**
 * Adds an authenticator app in Preferences: the current password first (a first factor asks for
 * nothing else), then the code the test computes; answers its secret.
 */
async function enrolApp(page: Page) {
  await page.getByRole('button', { name: 'Añadir aplicación de autenticación' }).click();
  const confirm = page.getByRole('dialog', { name: 'Añadir aplicación de autenticación' });
  await expect(confirm.getByText('Para añadir tu primer segundo factor, escribe tu contraseña actual.')).toBeVisible();
  await expect(confirm.getByLabel(/O un código/)).toHaveCount(0);
  await confirm.getByLabel('Contraseña actual').fill(TEST_PASSWORD);
  await confirm.getByRole('button', { name: 'Continuar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Añadir aplicación de autenticación' });
  await expect(dialog.getByRole('img', { name: 'Código QR para la aplicación de autenticación' })).toBeVisible();
  const secret = (await dialog.getByTestId('totp-secret').textContent())!.trim();
  await dialog.getByLabel('Código de la aplicación de autenticación').fill(totpCode(secret, now()));
  await dialog.getByRole('button', { name: 'Verificar' }).click();
  const codes = page.getByRole('dialog', { name: 'Códigos de recuperación' });
  await expect(codes.getByTestId('recovery-codes').locator('code')).toHaveCount(10);
  await codes.getByRole('button', { name: 'Los he guardado' }).click();
  return secret;
}

test('an authenticator app is enrolled in Preferences and asked for at the next sign-in', async ({ page, context }) => {
  const acc = await account();
  await signInContext(context, acc, 'ana');
  await page.goto('/admin/preferences/');
  await expect(page.getByText('No tienes ningún segundo factor.')).toBeVisible();
  const secret = await enrolApp(page);
  await expect(
    page.getByRole('table', { name: 'Segundo factor' }).getByRole('cell', { name: 'Aplicación de autenticación' }).first(),
  ).toBeVisible();
  await expect(page.getByText('Te quedan 10 códigos de recuperación.')).toBeVisible();

  // A code of the app just added does not stand in for the password in this session.
  await page.getByRole('button', { name: 'Nuevos códigos de recuperación' }).click();
  const renew = page.getByRole('dialog', { name: 'Nuevos códigos de recuperación' });
  await renew.getByLabel(/O un código/).fill(nextCode(secret));
  await renew.getByRole('button', { name: 'Nuevos códigos de recuperación' }).click();
  await expect(renew.getByLabel(/O un código/)).toHaveAttribute('aria-invalid', 'true');
  await expect(renew.getByText(/Ese factor se añadió en esta sesión/)).toBeVisible();
  await renew.getByRole('button', { name: 'Cancelar' }).click();

  await context.clearCookies();
  await page.goto('/login/');
  await (await fillSignIn(page, acc.realm, 'ana', TEST_PASSWORD)).click();
  const code = page.getByLabel('Código de la aplicación de autenticación');
  await expect(code).toBeVisible();
  await code.fill('000000' === nextCode(secret) ? '111111' : '000000');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(code).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('El código no es correcto o ya se ha usado')).toBeVisible();
  await code.fill(nextCode(secret));
  await page.getByRole('button', { name: 'Verificar' }).click();
  await expect(page).toHaveURL(LANDED);
});

test('a passkey made with a virtual authenticator signs in as the second factor', async ({ page, context }) => {
  // WebAuthn needs a secure context and a domain for the RP ID: http://localhost is both, 127.0.0.1 is not a domain.
  const base = `http://localhost:${E2E_PORT}`;
  const acc = await account();
  const token = await withE2EStore((store) => createSession(store, acc.users.ana));
  await context.addCookies([{ name: SESSION_COOKIE, value: token, domain: 'localhost', path: '/', httpOnly: true, sameSite: 'Strict' }]);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  await page.goto(`${base}/admin/preferences/`);
  await page.getByRole('button', { name: 'Añadir llave de acceso' }).click();
  const dialog = page.getByRole('dialog', { name: 'Añadir llave de acceso' });
  await dialog.getByLabel('Nombre de la llave').fill('Portátil de pruebas');
  await dialog.getByLabel('Contraseña actual').fill('not-my-password');
  await dialog.getByRole('button', { name: 'Crear la llave' }).click();
  await expect(dialog.getByLabel('Contraseña actual')).toHaveAttribute('data-invalid', 'true');
  await expect(dialog.getByText('La contraseña actual no es correcta')).toBeVisible();
  await dialog.getByLabel('Contraseña actual').fill(TEST_PASSWORD);
  await dialog.getByRole('button', { name: 'Crear la llave' }).click();
  await page.getByRole('dialog', { name: 'Códigos de recuperación' }).getByRole('button', { name: 'Los he guardado' }).click();
  await expect(page.getByRole('cell', { name: 'Portátil de pruebas', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Renombrar Portátil de pruebas' }).click();
  const rename = page.getByRole('dialog', { name: 'Renombrar Portátil de pruebas' });
  await rename.getByLabel('Nombre').fill('Portátil');
  await rename.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByRole('cell', { name: 'Portátil', exact: true })).toBeVisible();

  await context.clearCookies();
  await page.goto(`${base}/login/`);
  await (await fillSignIn(page, acc.realm, 'ana', TEST_PASSWORD)).click();
  await page.getByRole('button', { name: 'Usar una llave de acceso' }).click();
  await expect(page).toHaveURL(LANDED);
  const used = await withE2EStore((store) =>
    store.selectFrom('second_factor').select('last_used_at').where('user_id', '=', acc.users.ana).executeTakeFirstOrThrow(),
  );
  expect(used.last_used_at).not.toBeNull();
});

test('a recovery code signs in once; the same code is refused the second time', async ({ page }) => {
  const acc = await account();
  // The factor as enrolment leaves it, sealed with the running server's key, and a set of codes.
  const codes = await withE2EStore(async (store) => {
    const secrets = createSecrets(loadSecretKey(E2E_DATA_DIR));
    await store
      .insertInto('second_factor')
      .values({
        user_id: acc.users.ana,
        kind: 'totp',
        name: 'App',
        secret: secrets.encrypt(newTotpSecret()),
        created_at: now(),
        last_used_at: null,
      })
      .execute();
    return newRecoveryCodes(store, acc.users.ana);
  });
  const signInWith = async (code: string) => {
    await page.goto('/login/');
    await (await fillSignIn(page, acc.realm, 'ana', TEST_PASSWORD)).click();
    await page.getByRole('button', { name: 'Usar un código de recuperación' }).click();
    await page.getByLabel('Código de recuperación').fill(code);
    await page.getByRole('button', { name: 'Verificar' }).click();
  };
  await signInWith(codes[3]);
  await expect(page).toHaveURL(LANDED);
  await page.context().clearCookies();
  await signInWith(codes[3]);
  await expect(page.getByLabel('Código de recuperación')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('El código de recuperación no es válido o ya se ha usado')).toBeVisible();
  await expect(page).toHaveURL('/login/');
});

test('a realm that requires a second factor leads a user without one to enrolment, then opens the panel', async ({ page }) => {
  const acc = await account();
  admin('realm-require-2fa', acc.realm, 'on');
  // The entry's start-up calls (who am I, which lists) are refused before sign-in and while
  // enrolling, and left unread by design.
  const refused: string[] = [];
  page.on('response', (r) => r.status() >= 400 && refused.push(r.url()));
  await page.goto('/login/');
  await (await fillSignIn(page, acc.realm, 'ana', TEST_PASSWORD)).click();
  await expect(page).toHaveURL('/admin/preferences/');
  await expect(page.getByRole('alert').filter({ hasText: 'Tu proveedor exige un segundo factor' })).toBeVisible();
  // Nothing refused on the way: no toast, and no call the realm's rule refuses (the token list and
  // the item pickers wait for the enrolment).
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0);
  expect(refused.filter((url) => !url.endsWith('/p247/list/kinds/') && !url.endsWith('/p247/user/info/'))).toEqual([]);
  await expect(page.getByRole('navigation', { name: 'menu' })).toHaveCount(0);
  // Any other page leads back here until a factor is enrolled.
  await page.goto('/admin/domain/');
  await expect(page).toHaveURL('/admin/preferences/');
  await enrolApp(page);
  await expect(page).toHaveURL('/admin/');
  await expect(page.getByRole('navigation', { name: 'menu' })).toBeVisible();
});
