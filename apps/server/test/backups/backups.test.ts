import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWebhook } from '../../src/modules/operator/webhooks.ts';
import { runAdmin } from '../admin.ts';
import { bearerOf, createAccount, send } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { type Account, backupAccount, call, drainAll, restic, writeWeb } from './helpers.ts';

describeStores('backups of a service, listed and taken on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let id: number;
  let other: number;
  const list = (user = 'admin', item = id) => call(ctx, acc, user, `/service/${item}/backups/`);
  const create = (user = 'admin', item = id) => call(ctx, acc, user, `/service/${item}/backups/`, {});

  beforeAll(async () => {
    ctx = await openTestApp(kind, { 'backups.perDay': 2 });
    acc = await backupAccount(ctx);
    id = acc.items['tienda.test'];
    other = acc.items['otra.test'];
    writeWeb(ctx, 'tienda.test', { 'index.html': '<h1>tienda</h1>\n', 'docs/a.bin': Buffer.from([0, 1, 2, 255, 254, 10, 13]) });
    // The zone exists once its screen was opened: the backup then holds it.
    expect((await call(ctx, acc, 'admin', `/service/${id}/dns/list/`)).status).toBe(200);
  }, 30_000);
  afterAll(async () => ctx?.close());

  it('lists no backup at first, with the nightly time, the day’s limit and the retention', async () => {
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(answer.body.data.backups).toEqual([]);
    expect(answer.body.data.schedule).toEqual({ time: expect.stringMatching(/^0[3-6]:\d\d$/), perDay: 2, usedToday: 0 });
    expect(answer.body.data.retention).toEqual({ daily: 7, weekly: 4, monthly: 6 });
  });

  it('takes a backup now through the worker: web root, zone and settings in the realm’s own repository, readable with restic and the key backup-key prints', async () => {
    const made = await create();
    expect(made.status).toBe(200);
    expect(made.body.data.backup).toMatchObject({ reason: 'customer', status: 'queued', parts: [] });
    expect(made.body.system.job).toEqual(expect.any(Number));
    await drainAll(ctx);
    const [backup] = (await list()).body.data.backups;
    expect(backup).toMatchObject({ status: 'done', progress: 100, parts: ['web', 'zone', 'settings'], error: null });
    expect(backup.size).toBeGreaterThan(0);
    expect(backup.added).toBeGreaterThan(0);

    const printed = await runAdmin(ctx.app.runtime, 'backup-key', [acc.realm]);
    const url = /^repository: (.+)$/m.exec(printed)?.[1];
    const key = /^key: (.+)$/m.exec(printed)?.[1];
    expect(url).toBe(`${ctx.config.dataDir}/backups/${acc.realm}`);
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The store keeps it sealed, never in clear.
    const row = await ctx.store.selectFrom('backup_repository').selectAll().executeTakeFirstOrThrow();
    expect(row.password_sealed).not.toContain(key!);
    const snapshots = JSON.parse(await restic(url!, key!, ['snapshots', '--json'])) as { tags: string[] }[];
    expect(snapshots.map((s) => s.tags.filter((t) => t.startsWith('part:')).join())).toEqual(
      expect.arrayContaining(['part:web', 'part:zone', 'part:settings']),
    );
    for (const s of snapshots) expect(s.tags).toEqual(expect.arrayContaining([`realm:${acc.realm}`, 'service:tienda.test']));
    await expect(restic(url!, 'not-the-key', ['snapshots', '--json'])).rejects.toThrow();
  });

  it('refuses a second backup while one is queued (409), and one over the day’s limit (429)', async () => {
    const queued = await create();
    expect(queued.status).toBe(200);
    const again = await create();
    expect(again.status).toBe(409);
    expect(again.body.system.errors).toEqual(['Ya se está haciendo una copia de este servicio: espera a que termine']);
    await drainAll(ctx);
    expect((await list()).body.data.schedule.usedToday).toBe(2);
    const over = await create();
    expect(over.status).toBe(429);
    expect(over.body.system.errors).toEqual(['Ya has hecho 2 copias hoy, el máximo diario']);
  });

  it('lets a viewer list, browse and download, but not back up or restore (403)', async () => {
    const [backup] = (await list('viewer')).body.data.backups;
    expect(backup.status).toBe('done');
    const files = await call(ctx, acc, 'viewer', `/service/${id}/backups/${backup.id}/files/?path=/web/docs/`);
    expect(files.status).toBe(200);
    expect(files.body.data.entries).toEqual([expect.objectContaining({ name: 'a.bin', type: 'file', size: 7 })]);
    const root = await call(ctx, acc, 'viewer', `/service/${id}/backups/${backup.id}/files/?path=/`);
    expect(root.body.data.entries.map((e: { name: string }) => e.name).sort()).toEqual(['web', 'zone']);
    const download = await call(ctx, acc, 'viewer', `/service/${id}/backups/${backup.id}/download/?path=/web/docs/a.bin`);
    expect(download.status).toBe(200);
    expect(download.headers['content-type']).toBe('application/gzip');
    expect(download.raw.length).toBeGreaterThan(20);
    expect((await create('viewer')).status).toBe(403);
    const restore = await call(ctx, acc, 'viewer', `/service/${id}/backups/${backup.id}/restore/`, {
      part: 'web',
      path: '/',
      target: 'copy',
    });
    expect(restore.status).toBe(403);
  });

  it('hides the backups from a user whose map disables service_backups (404), and from a token without the area', async () => {
    expect((await list('hidden')).status).toBe(404);
    const withService = await bearerOf(ctx.store, acc.users.admin, 'service=write');
    expect((await send(ctx.app, 'GET', `/service/${id}/backups/`, withService)).status).toBe(404);
    const withBackups = await bearerOf(ctx.store, acc.users.admin, 'service=read,service_backups=read');
    expect((await send(ctx.app, 'GET', `/service/${id}/backups/`, withBackups)).status).toBe(200);
    expect((await send(ctx.app, 'POST', `/service/${id}/backups/`, withBackups, {})).status).toBe(403);
  });

  it("answers 404 for another realm's service and for another service's backup id", async () => {
    const stranger = await createAccount(ctx.store, {
      users: { admin: 'all=write' },
      items: [{ reference: 'ajena.test', service: 'normal' }],
    });
    expect((await call(ctx, stranger, 'admin', `/service/${id}/backups/`)).status).toBe(404);
    const [backup] = (await list()).body.data.backups;
    const elsewhere = await call(ctx, acc, 'admin', `/service/${other}/backups/${backup.id}/files/?path=/`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.body.system.errors).toEqual(['No existe esa copia de seguridad']);
    expect((await call(ctx, acc, 'admin', `/service/${id}/backups/99999/files/?path=/`)).status).toBe(404);
    expect((await call(ctx, acc, 'admin', `/service/${id}/backups/abc/download/?path=/`)).status).toBe(404);
  });

  it('refuses a path that leaves the backup or holds a control character under `path`, and one it has not got with 404', async () => {
    const [backup] = (await list()).body.data.backups;
    const base = `/service/${id}/backups/${backup.id}`;
    for (const bad of ['/web/../../etc/passwd', '/web/%01x', '/web\\x']) {
      const answer = await call(ctx, acc, 'admin', `${base}/files/?path=${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.system.inputs).toEqual(['path']);
    }
    const missing = await call(ctx, acc, 'admin', `${base}/download/?path=/web/nothing-here.txt`);
    expect(missing.status).toBe(404);
  });

  it('reports a backup that fails for good: failed on the list, the backup.failed webhook, `backups --failed` and the service screen', async () => {
    await createWebhook(ctx.store, ctx.app.runtime.secrets, { url: 'http://127.0.0.1:19499/hook', events: ['backup.failed'] });
    // The realm's repository where no repository can be: under a file.
    await ctx.store.updateTable('backup_repository').set({ url: '/dev/null/backups' }).execute();
    const made = await create('admin', other);
    expect(made.status).toBe(200);
    await drainAll(ctx);
    const [failed] = (await list('admin', other)).body.data.backups;
    expect(failed).toMatchObject({ status: 'failed', error: expect.any(String) });
    const delivery = await ctx.store
      .selectFrom('webhook_delivery')
      .select(['event', 'body'])
      .where('event', '=', 'backup.failed')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(delivery.body).data).toMatchObject({
      realm: acc.realm,
      reference: 'otra.test',
      backup: failed.id,
      reason: 'customer',
    });
    const lines = await runAdmin(ctx.app.runtime, 'backups', [], { failed: true });
    expect(lines).toContain(`${acc.realm}\totra.test\t`);
    const view = await call(ctx, acc, 'admin', `/service/${other}/`);
    expect(view.body.data.service.backupFailed).toMatchObject({ reason: failed.error });
  });
});
