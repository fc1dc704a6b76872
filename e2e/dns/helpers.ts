import { expect, type Page } from '@playwright/test';
import { dnssecStepSchedule } from '../../apps/server/src/modules/dns/dnssec/schedule.ts';
import type { Account } from '../../apps/server/test/fixtures.ts';
import { createE2EAccount, setLanguage, signInContext, unique, withE2EStore } from '../support/accounts.ts';

export type ZoneAccount = Account & { zone: string };

/** A realm with a writer (w) and a reader (r) of one zone; opens its DNS page in the user's language. */
export async function openZone(page: Page, role: 'w' | 'r', language = 'es'): Promise<ZoneAccount> {
  const ZONE = unique('zona-e2e.es');
  const created = await createE2EAccount({
    users: { w: 'all=write', r: 'all=read' },
    items: [{ reference: ZONE, domain: true, service: 'normal' }],
  });
  const account = Object.assign(created, { zone: ZONE });
  if (language !== 'es') {
    await setLanguage(account, role, language);
  }
  await signInContext(page.context(), account, role);
  await page.goto(`/admin/${account.items[ZONE]}/service/dns/`);
  // The first page of a run loads the whole app: as long as the domain page's first load is given.
  await expect(page.getByRole('heading', { level: 1, name: ZONE })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('dns-row').first()).toBeVisible({ timeout: 15_000 });
  return account;
}

/**
 * Fills the (already created) zone with `count` A, MX and TXT records straight in the store: a
 * 5,000-record zone through the API would spend the test's time on 5,000 apply jobs, and what is
 * under test here is the screen.
 */
export const addRecords = (account: ZoneAccount, count: number) =>
  withE2EStore(async (store) => {
    const itemId = account.items[account.zone];
    const now = Math.floor(Date.now() / 1000);
    const rows = Array.from({ length: count }, (_, i) => {
      const kind = i % 3;
      const zona = `h${String(i).padStart(4, '0')}`;
      if (kind === 0)
        return {
          item_id: itemId,
          zona,
          type: 'A',
          ttl: 0,
          priority: null,
          value: `198.51.${Math.floor(i / 250)}.${i % 250}`,
          dynamic_value: null,
          created_at: now,
        };
      if (kind === 1)
        return {
          item_id: itemId,
          zona,
          type: 'MX',
          ttl: 600,
          priority: 10,
          value: `mx${i}.example.net.`,
          dynamic_value: null,
          created_at: now,
        };
      return { item_id: itemId, zona, type: 'TXT', ttl: 3600, priority: null, value: `texto ${i}`, dynamic_value: null, created_at: now };
    });
    for (let i = 0; i < rows.length; i += 500)
      await store
        .insertInto('dns_record')
        .values(rows.slice(i, i + 500))
        .execute();
  });

/**
 * Moves the zone's DNSSEC clock past its wait and runs the server's own `dnssec-steps` schedule
 * once against its store: the job of the next step is queued there and the server's worker takes it.
 */
export const passDnssecWait = (account: ZoneAccount) =>
  withE2EStore(async (store) => {
    await store
      .updateTable('dns_zone')
      .set({ dnssec_due_at: Math.floor(Date.now() / 1000) - 1 })
      .where('item_id', '=', account.items[account.zone])
      .execute();
    await store.transaction().execute((trx) => dnssecStepSchedule().run(trx));
  });
