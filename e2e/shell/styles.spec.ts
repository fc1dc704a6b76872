import { expect, type Locator, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique } from '../support/accounts.ts';

/** A Mantine Button whose own rules lost to UnstyledButton's is transparent: plain bold text. */
const background = (button: Locator) => button.evaluate((element) => getComputedStyle(element).backgroundColor);
const TRANSPARENT = 'rgba(0, 0, 0, 0)';

test('buttons look like buttons: the sign-in button and a list row’s manage button have a background', async ({ page, context }) => {
  await page.goto('/login/');
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
  expect(await background(page.getByRole('button', { name: 'Entrar' }))).not.toBe(TRANSPARENT);

  const reference = unique('pintado.es');
  const account = await createE2EAccount({ users: { ana: 'all=write' }, items: [{ reference, domain: true }] });
  await signInContext(context, account, 'ana');
  await page.goto('/admin/domain/');
  const manage = page.getByRole('link', { name: `Gestionar ${reference}` });
  await expect(manage).toBeVisible();
  expect(await background(manage)).not.toBe(TRANSPARENT);
});
