import { expect, type Request, test } from '@playwright/test';
import { admin, unique } from '../support/accounts.ts';
import { fillSignIn, TEST_PASSWORD } from './helpers.ts';

const ITEMS = 10_000;
const isList = (request: Request) => new URL(request.url()).pathname === '/p247/list/domain/';

test(`signing in to a realm of ${ITEMS.toLocaleString('en')} items loads one page of the domain list, filtered and sorted on the server`, async ({
  page,
}) => {
  test.setTimeout(120_000);
  // The fast seed of the admin tool, into this test's own realm: item names start with its first label.
  const realm = unique('grande.es');
  admin('seed-realm', realm, 'ana', '--items', String(ITEMS), '--password', TEST_PASSWORD);
  const asked: Request[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/p247/')) asked.push(request);
  });
  await page.goto('/login/');
  await (await fillSignIn(page, realm, 'ana', TEST_PASSWORD)).click();
  await expect(page).toHaveURL(/\/admin\/\d+\/domain\/$/);
  // The shell never asks for every item: not the old item list, only which lists exist.
  expect(asked.map((r) => new URL(r.url()).pathname)).not.toContain('/p247/permission/list/');
  expect(asked.map((r) => new URL(r.url()).pathname)).toContain('/p247/list/kinds/');

  await page.getByRole('navigation', { name: 'menu' }).getByRole('link', { name: 'Dominios' }).click();
  const rows = page.getByRole('table', { name: 'Dominios' }).locator('tbody tr');
  await expect(rows).toHaveCount(10);
  const first = asked.filter(isList);
  expect(first).toHaveLength(1);
  const url = new URL(first[0].url());
  expect(Object.fromEntries(url.searchParams)).toMatchObject({ page: '1', sort: 'reference', order: 'asc', filter: '' });
  const answer = await (await first[0].response())!.json();
  // Four of the seed's six item shapes carry a domain.
  const domains = Array.from({ length: ITEMS }, (_, n) => n % 6 <= 3).filter(Boolean).length;
  expect(answer.data).toMatchObject({ total: domains, pageSize: 10 });
  // Every row shows its expiry date and the status light.
  await expect(rows.first().locator('[data-expired]')).toHaveCount(1);

  // Typing the filter sends it once typing pauses, not once per key; accents and case do not matter.
  const before = asked.filter(isList).length;
  await page.getByRole('searchbox', { name: 'Filtrar Dominios' }).pressSequentially('CAFE 000042', { delay: 30 });
  await expect(rows).toHaveCount(1);
  const typed = asked.filter(isList).slice(before);
  expect(typed.length).toBeLessThan(4);
  expect(new URL(typed.at(-1)!.url()).searchParams.get('filter')).toBe('CAFE 000042');
  await expect(page.getByRole('navigation').getByRole('button', { name: '2' })).toHaveCount(0);

  // Sorting by expiry asks the server again, from page 1; ascending, the expired come first.
  await page.getByRole('searchbox', { name: 'Filtrar Dominios' }).fill('');
  await expect(rows).toHaveCount(10);
  await page.getByRole('button', { name: /Caducidad/ }).click();
  await expect(page.getByRole('columnheader', { name: /Caducidad/ })).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.first().locator('[data-expired="true"]')).toHaveCount(1);
  expect(new URL(asked.filter(isList).at(-1)!.url()).searchParams.get('sort')).toBe('expiry');
  // No answer of the whole session carried more than a page of items.
  for (const request of asked.filter(isList)) {
    const body = await (await request.response())?.body();
    expect(body?.byteLength ?? 0).toBeLessThan(50_000);
  }
});
