import { expect, type Page, test } from '@playwright/test';
import { signInContext } from '../support/accounts.ts';
import { fullAccount, wcagViolations } from './helpers.ts';

/**
 * axe (WCAG 2.1 AA) on every route of the SPA: signed out, as a writer and as a reader, in the light
 * and the dark theme, on a 360 px phone and on a desktop. One representative item (domain, hosting
 * and mail, with a row in each list) stands for every item, so the run stays bounded. Signed out,
 * every theme meets every size; signed in, each user walks two of the four pairs and the two users
 * together walk all four, so each user meets each theme and each size once (a screen differs
 * between writer and reader only by its buttons).
 */
// Each walk makes its own account, so the file's tests share nothing: both workers take them, and
// the run's longest file (a fifth of the browser tests' time) no longer ends the run on one worker.
test.describe.configure({ mode: 'parallel' });

const VIEWPORTS = { phone: { width: 360, height: 740 }, desktop: { width: 1280, height: 800 } } as const;
const THEMES = ['light', 'dark'] as const;
/** Who walks the signed-in screens in each theme and size: the writer (ana) or the reader (luis). */
const WALKS: Record<string, string[]> = {
  'light, desktop': ['ana'],
  'dark, phone': ['ana'],
  'light, phone': ['luis'],
  'dark, desktop': ['luis'],
};

/**
 * The page has loaded what it shows: no call in flight (signed in; signed out the sign-in button or
 * the 404 message stands for it, the captcha keeps working in the background), no loader, the
 * fade-in (400 ms delay) over.
 */
async function settled(page: Page, signedIn: boolean) {
  if (signedIn) await page.waitForLoadState('networkidle');
  else await expect(page.getByRole('button', { name: 'Entrar' }).or(page.getByTestId('not-found'))).toBeVisible();
  await expect(page.getByLabel(/^(Cargando|Loading|Carregant)/)).toHaveCount(0);
  if ((await page.locator('.page-fade').count()) > 0) await expect(page.locator('.page-fade')).toHaveCSS('opacity', '1');
}

async function audit(page: Page, paths: string[], theme: string, signedIn = true) {
  const found: string[] = [];
  for (const path of paths) {
    await page.goto(path);
    await settled(page, signedIn);
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', theme);
    found.push(...(await wcagViolations(page)).map((v) => `${path} ${v}`));
  }
  expect(found).toEqual([]);
}

for (const theme of THEMES) {
  for (const [size, viewport] of Object.entries(VIEWPORTS)) {
    test.describe(`${theme}, ${size}`, () => {
      test.use({ viewport });
      test.beforeEach(async ({ context }) => {
        await context.addInitScript((value) => localStorage.setItem('theme', value), theme);
      });

      test('signed out: the sign-in page and the 404 page have no WCAG 2.1 AA violation', async ({ page }) => {
        await audit(page, ['/login/', '/no/such/page/'], theme, false);
      });

      const walkers = WALKS[`${theme}, ${size}`] ?? [];
      for (const user of walkers) {
        test(`as ${user === 'ana' ? 'a writer' : 'a reader'}: every screen has no WCAG 2.1 AA violation`, async ({ page, context }) => {
          test.setTimeout(90_000);
          const account = await fullAccount();
          const id = account.items[account.reference];
          await signInContext(context, account, 'ana');
          const headers = { 'x-dd-request': '1' };
          const post = (path: string, form: Record<string, string>) =>
            context.request.post(`/p247/service/${id}/${path}`, { headers, form });
          await post('correo/create/', { name: 'info', password: 'Clave-segura-1' });
          await post('alias/create/', { name: 'ventas', target: 'info@example.com' });
          await post('ftp/create/', { ftpUser: 'web', password: 'Clave-segura-1', folder: '/' });
          await post('ddbb/create/', { password: 'Clave-segura-1' });
          await post('backups/', {});
          await context.request.post(`/p247/domain/${id}/gluerecord/create/`, { headers, form: { name: 'ns1', ip: '192.0.2.1' } });
          if (user !== 'ana') await signInContext(context, account, user);
          const item = `/admin/${id}`;
          await audit(
            page,
            [
              '/admin/',
              '/admin/domain/',
              '/admin/service/',
              '/admin/mail/',
              '/admin/preferences/',
              '/admin/contact/',
              '/admin/activity/',
              '/legal/',
              '/no/such/page/',
              `${item}/domain/`,
              `${item}/mail/`,
              `${item}/service/`,
              `${item}/service/ftp/`,
              `${item}/service/ddbb/`,
              `${item}/service/subdomain/`,
              `${item}/service/dns/`,
              `${item}/service/backups/`,
            ],
            theme,
          );
        });
      }
    });
  }
}
