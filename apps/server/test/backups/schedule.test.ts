import { afterAll, beforeAll, expect, it } from 'vitest';
import { BACKUP_JOB, queueBackup } from '../../src/modules/backups/jobs.ts';
import { BACKUPS_PER_ROUND } from '../../src/modules/backups/schedule.ts';
import { createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

describeStores('the nightly backups schedule on %s', (kind) => {
  let ctx: TestContext;
  let items: Record<string, number>;
  const scheduled = () =>
    ctx.store.selectFrom('backup').select(['item_id', 'job_id']).where('reason', '=', 'schedule').orderBy('item_id').execute();

  beforeAll(async () => {
    ctx = await openTestApp(kind, { 'backups.windowMinutes': 0 });
    const references = Array.from({ length: BACKUPS_PER_ROUND + 3 }, (_, i) => ({ reference: `s${i}.test`, service: 'normal' as const }));
    ({ items } = await createAccount(ctx.store, {
      users: { admin: 'all=write' },
      items: [...references, { reference: 'dominio.test', domain: true }],
    }));
    // Services older than last night's slot: each is due once.
    await ctx.store.updateTable('item').set({ created_at: 0 }).execute();
    // One of them is being backed up already.
    await queueBackup(ctx.store, items['s0.test'], 'customer');
  });
  afterAll(async () => ctx?.close());

  it('queues the due services a few at a time, on their node, skipping one with a backup open and items without a service', async () => {
    expect(await ctx.app.runtime.scheduler.runNow('backups')).toBe(true);
    const first = await scheduled();
    expect(first).toHaveLength(BACKUPS_PER_ROUND);
    expect(first.map((b) => b.item_id)).not.toContain(items['s0.test']);
    expect(first.map((b) => b.item_id)).not.toContain(items['dominio.test']);
    const jobs = await ctx.store.selectFrom('job').select(['kind', 'item_id']).where('kind', '=', BACKUP_JOB.snapshot).execute();
    expect(jobs).toHaveLength(BACKUPS_PER_ROUND + 1);

    // The next round takes the rest, and then nothing is due until the next night.
    await ctx.app.runtime.scheduler.runNow('backups');
    expect(await scheduled()).toHaveLength(BACKUPS_PER_ROUND + 2);
    await ctx.app.runtime.scheduler.runNow('backups');
    expect(await scheduled()).toHaveLength(BACKUPS_PER_ROUND + 2);
  });

  it('queues one prune per realm repository a day, after the window', async () => {
    const realm = await ctx.store.selectFrom('realm').select('id').executeTakeFirstOrThrow();
    await ctx.store
      .insertInto('backup_repository')
      .values({ realm_id: realm.id, url: '/x', password_sealed: 'x', created_at: 0 })
      .execute();
    await ctx.app.runtime.scheduler.runNow('backup-prune');
    await ctx.app.runtime.scheduler.runNow('backup-prune');
    const prunes = await ctx.store.selectFrom('job').select('payload').where('kind', '=', BACKUP_JOB.prune).execute();
    expect(prunes.map((p) => JSON.parse(p.payload))).toEqual([{ realm: realm.id }]);
  });
});
