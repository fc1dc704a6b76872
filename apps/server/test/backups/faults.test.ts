import { randomBytes } from 'node:crypto';
import { translate } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort } from '../backends/harness/common.ts';
import { eventually } from '../nodes/processes.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { type Account, backupAccount, call, drainAll, writeWeb } from './area.ts';

/** A loopback port of this file's range that nothing listens on: a REST repository that is down. */
/** A port nothing listens on: free when asked, and nobody binds it after. */
let CLOSED_PORT = 0;

describeStores('a restore already running and a repository that cannot be reached, on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let id: number;
  let backupId: number;
  const restore = (fields: Record<string, string>) => call(ctx, acc, 'admin', `/service/${id}/backups/${backupId}/restore/`, fields);
  const restoreStatus = async (restoreId: number) =>
    (await ctx.store.selectFrom('backup_restore').select('status').where('id', '=', restoreId).executeTakeFirstOrThrow()).status;

  beforeAll(async () => {
    CLOSED_PORT = await freePort();
    ctx = await openTestApp(kind);
    acc = await backupAccount(ctx);
    id = acc.items['tienda.test'];
    // Enough bytes that do not compress for restic to be at work for a while when the second restore is asked.
    writeWeb(ctx, 'tienda.test', Object.fromEntries(Array.from({ length: 4 }, (_, i) => [`big-${i}.bin`, randomBytes(2 << 20)])));
    const made = await call(ctx, acc, 'admin', `/service/${id}/backups/`, {});
    backupId = made.body.data.backup.id;
    await drainAll(ctx);
  }, 60_000);
  afterAll(async () => ctx?.close());

  it('refuses a second restore of the service while the first one runs (409 backups.restore_running), and takes one after it ended', async () => {
    const first = await restore({ part: 'web', path: '/', target: 'copy' });
    expect(first.status).toBe(200);
    const worker = drainAll(ctx);
    await eventually(async () => (await restoreStatus(first.body.data.restore.id)) === 'running', 20_000, 'the restore running');
    const second = await restore({ part: 'web', path: '/big-0.bin', target: 'replace' });
    expect(second.status).toBe(409);
    expect(second.body.system.errors).toEqual([translate('es', 'backups.restore_running')]);
    await worker;
    expect(await restoreStatus(first.body.data.restore.id)).toBe('done');
    const after = await restore({ part: 'web', path: '/big-0.bin', target: 'copy' });
    expect(after.status).toBe(200);
    await drainAll(ctx);
  }, 60_000);

  it('shows a backup to a repository nobody answers as failed with backups.repository_unreachable on the list', async () => {
    // The operator's repository a REST server that is down.
    const down = await openTestApp(kind, { 'backups.repository': `rest:http://127.0.0.1:${CLOSED_PORT}/` });
    try {
      const owner = await backupAccount(down);
      const item = owner.items['tienda.test'];
      const made = await call(down, owner, 'admin', `/service/${item}/backups/`, {});
      expect(made.status).toBe(200);
      await drainAll(down);
      const [failed] = (await call(down, owner, 'admin', `/service/${item}/backups/`)).body.data.backups;
      expect(failed).toMatchObject({ id: made.body.data.backup.id, status: 'failed', error: 'backups.repository_unreachable' });
      const repository = await down.store.selectFrom('backup_repository').select('url').executeTakeFirstOrThrow();
      expect(repository.url).toBe(`rest:http://127.0.0.1:${CLOSED_PORT}/${owner.realm}`);
    } finally {
      await down.close();
    }
  }, 60_000);
});
