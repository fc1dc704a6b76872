import { expect, test } from '@playwright/test';
import { createE2EAccount, signInContext, unique } from '../support/accounts.ts';

/** A built file's name without its content hash: `panel-Ab3_x-9Z.js` → `panel`. */
const chunkName = (url: string) => new URL(url).pathname.replace(/^\/assets\//, '').replace(/-[\w-]{8}\.js$/, '');

test("the dashboard's first load fetches the start-up files, the panel's chunk and the language's texts, nothing else, and asks for each start-up call once", async ({
  page,
  context,
}) => {
  const soon = unique('pronto.es');
  const account = await createE2EAccount({
    users: { ana: 'all=write' },
    items: [{ reference: soon, domain: true, expireAt: Math.floor(Date.now() / 1000) + 5 * 86_400 }],
  });
  await signInContext(context, account, 'ana');
  const scripts: string[] = [];
  const calls: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(chunkName(request.url()));
    else if (new URL(request.url()).pathname.startsWith('/p247/')) calls.push(new URL(request.url()).pathname);
  });
  await page.goto('/admin/');
  await expect(page.getByTestId('expiring-soon').getByRole('row').filter({ hasText: soon })).toBeVisible();
  await page.waitForLoadState('networkidle');
  // No stub files for the frame or the dashboard, no Floating UI, no user menu before it is used
  // (decision 011): each would be one more request, or more bytes, before the first render.
  expect(scripts.toSorted()).toEqual(['App', 'boot-texts-es', 'index', 'panel', 'preload', 'rolldown-runtime', 'start', 'startup']);
  // The entry sent these before the chunks arrived; the screens found the answers instead of asking again.
  for (const call of ['/p247/config/get/', '/p247/user/info/', '/p247/list/kinds/', '/p247/expiring/']) {
    expect(
      calls.filter((c) => c === call),
      call,
    ).toHaveLength(1);
  }
});
