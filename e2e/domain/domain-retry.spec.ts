import { expect, test } from '@playwright/test';
import { queueRegistryChange } from '../../apps/server/src/modules/domain/changes.ts';
import { signInContext, withE2EStore } from '../support/accounts.ts';
import { openDomain } from './helpers.ts';

const SERVERS = ['ns1.reintento-e2e.net', 'ns2.reintento-e2e.net'];

test('a registry change the outbox gave up on shows failed with a retry that applies it again; a reader sees no button', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const account = await openDomain(page, 'w');
  const itemId = account.items[account.domain];
  // A name-server change whose job failed for good (the registry never answered), written failed
  // in the transaction that queues it, so the server's worker never runs it first.
  await withE2EStore((store) =>
    store.transaction().execute(async (trx) => {
      const change = await queueRegistryChange(trx, { itemId, action: 'nameServers', payload: { mode: 'setDNS', hosts: SERVERS } });
      const { job_id } = await trx.selectFrom('registry_change').select('job_id').where('id', '=', change).executeTakeFirstOrThrow();
      await trx
        .updateTable('job')
        .set({ status: 'failed', attempts: 8, last_error: 'connect ECONNREFUSED' })
        .where('id', '=', job_id!)
        .execute();
    }),
  );
  await page.reload();
  const change = page.getByTestId('change-nameServers');
  await expect(change.getByTestId('state-failed')).toHaveText('Error al aplicar');

  const reader = await browser.newContext();
  await signInContext(reader, account, 'r');
  const readerPage = await reader.newPage();
  await readerPage.goto(`/admin/${itemId}/domain/`);
  await expect(readerPage.getByTestId('change-nameServers').getByTestId('state-failed')).toBeVisible({ timeout: 15_000 });
  await expect(readerPage.getByTestId('state-retry')).toHaveCount(0);

  await change.getByRole('button', { name: 'Reintentar el cambio de Servidores DNS' }).click();
  await expect(page.getByText('Se volverá a aplicar el cambio').first()).toBeVisible();
  // Applied again by the server's worker: the page polls until the change is done.
  await expect(page.getByTestId('registry-changes')).toBeHidden({ timeout: 20_000 });
  await expect(page.getByTestId('summary-dns').getByText(SERVERS[0])).toBeVisible();
  await reader.close();
});
