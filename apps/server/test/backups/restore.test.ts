import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { stampOf } from '../../src/modules/backups/restore.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { type Account, backupAccount, call, drainAll, webRoot, writeWeb } from './area.ts';

/** The zone's text without its SOA (whose serial counts every change, the restore's too). */
const withoutSoa = (text: string) =>
  text
    .split('\n')
    .filter((line) => !/\sSOA\s/.test(line))
    .join('\n');

describeStores('restores of a backup on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let id: number;
  let backupId: number;
  let zoneText: string;
  let database: string;
  const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 256));
  const restore = (fields: Record<string, string>, user = 'admin', backup = backupId) =>
    call(ctx, acc, user, `/service/${id}/backups/${backup}/restore/`, fields);
  const restoreRow = async (restoreId: number) =>
    (await call(ctx, acc, 'admin', `/service/${id}/backups/`)).body.data.restores.find((r: { id: number }) => r.id === restoreId);

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await backupAccount(ctx);
    id = acc.items['tienda.test'];
    writeWeb(ctx, 'tienda.test', { 'index.html': '<h1>tienda</h1>\n', 'docs/photo.bin': bytes, 'docs/keep.txt': 'keep\n' });
    await ctx.store.updateTable('service').set({ limit_databases: 2 }).where('item_id', '=', id).execute();
    const db = await call(ctx, acc, 'admin', `/service/${id}/ddbb/create/`, { password: 'Backup-test-pass-1' });
    expect(db.status).toBe(200);
    database = db.body.data.ddbb.bbdd;
    const made = await call(ctx, acc, 'admin', `/service/${id}/backups/`, {});
    backupId = made.body.data.backup.id;
    await drainAll(ctx);
    // The zone as the backup took it: the item's earlier jobs (its DKIM key's record) applied before it (lanes).
    zoneText = (await call(ctx, acc, 'admin', `/service/${id}/dns/export/`)).body.data.text;
  }, 30_000);
  afterAll(async () => ctx?.close());

  it('refuses bad restores under their fields: a zone as a copy, a part the backup has not got, a path leaving it', async () => {
    const zoneCopy = await restore({ part: 'zone', target: 'copy' });
    expect(zoneCopy.status).toBe(400);
    expect(zoneCopy.body.system.inputs).toEqual(['target']);
    const mail = await restore({ part: 'mail', path: '/info@tienda.test', target: 'copy' });
    expect(mail.status).toBe(400);
    expect(mail.body.system.inputs).toEqual(['part']);
    const outside = await restore({ part: 'web', path: '/docs/../../x', target: 'copy' });
    expect(outside.status).toBe(400);
    expect(outside.body.system.inputs).toEqual(['path']);
    const control = await restore({ part: 'web', path: '/docs/\u0007', target: 'copy' });
    expect(control.status).toBe(400);
    expect(control.body.system.inputs).toEqual(['path']);
    const badPart = await restore({ part: 'etc', target: 'copy' });
    expect(badPart.status).toBe(400);
    expect(badPart.body.system.inputs).toEqual(['part']);
  });

  it('puts a deleted file back beside the live data as a copy, byte for byte, through the worker', async () => {
    rmSync(path.join(webRoot(ctx, 'tienda.test'), 'docs/photo.bin'));
    const asked = await restore({ part: 'web', path: '/docs/photo.bin', target: 'copy' });
    expect(asked.status).toBe(200);
    expect(asked.body.data.restore).toMatchObject({ status: 'queued', part: 'web', target: 'copy', backup: backupId });
    // One restore of a service at a time.
    const second = await restore({ part: 'web', path: '/index.html', target: 'copy' });
    expect(second.status).toBe(409);
    await drainAll(ctx);
    const done = await restoreRow(asked.body.data.restore.id);
    expect(done).toMatchObject({ status: 'done', progress: 100, error: null });
    const stamp = stampOf(Math.floor(Date.parse(done.time) / 1000));
    const copied = path.join(webRoot(ctx, 'tienda.test'), `restored-${stamp}`, 'docs/photo.bin');
    expect(readFileSync(copied).equals(bytes)).toBe(true);
    expect(done.result).toContain(`restored-${stamp}`);
  });

  it('replaces a deleted file in place after a backup of what it overwrites (before_restore)', async () => {
    const live = path.join(webRoot(ctx, 'tienda.test'), 'docs');
    rmSync(path.join(live, 'photo.bin'), { force: true });
    writeWeb(ctx, 'tienda.test', { 'docs/keep.txt': 'changed since\n' });
    const asked = await restore({ part: 'web', path: '/docs', target: 'replace' });
    expect(asked.status).toBe(200);
    await drainAll(ctx);
    const done = await restoreRow(asked.body.data.restore.id);
    expect(done, done.error).toMatchObject({ status: 'done' });
    expect(readFileSync(path.join(live, 'photo.bin')).equals(bytes)).toBe(true);
    expect(readFileSync(path.join(live, 'keep.txt'), 'utf8')).toBe('keep\n');
    const row = await ctx.store
      .selectFrom('backup_restore')
      .selectAll()
      .where('id', '=', asked.body.data.restore.id)
      .executeTakeFirstOrThrow();
    expect(row.before_backup_id).toEqual(expect.any(Number));
    const before = (await call(ctx, acc, 'admin', `/service/${id}/backups/`)).body.data.backups.find(
      (b: { id: number }) => b.id === row.before_backup_id,
    );
    expect(before).toMatchObject({ reason: 'before_restore', status: 'done', parts: ['web', 'settings'] });
    // What was overwritten is in that backup.
    const files = await call(ctx, acc, 'admin', `/service/${id}/backups/${before.id}/files/?path=/web/docs/`);
    expect(files.body.data.entries.map((e: { name: string }) => e.name)).toEqual(['keep.txt']);
  });

  it('restores the zone as it was exported: its records equal the backup’s text, and the zone history names backup-restore', async () => {
    const added = await call(ctx, acc, 'admin', `/service/${id}/dns/create/`, {
      zona: 'nuevo',
      type: 'A',
      ttl: '3600',
      value: '192.0.2.7',
    });
    expect(added.status).toBe(200);
    const changed = (await call(ctx, acc, 'admin', `/service/${id}/dns/export/`)).body.data.text;
    expect(withoutSoa(changed)).not.toBe(withoutSoa(zoneText));
    const asked = await restore({ part: 'zone', target: 'replace' });
    expect(asked.status).toBe(200);
    await drainAll(ctx);
    const done = await restoreRow(asked.body.data.restore.id);
    expect(done, done.error).toMatchObject({ status: 'done', result: 'tienda.test' });
    const now = (await call(ctx, acc, 'admin', `/service/${id}/dns/export/`)).body.data.text;
    expect(withoutSoa(now)).toBe(withoutSoa(zoneText));
    const history = (await call(ctx, acc, 'admin', `/service/${id}/dns/history/`)).body.data.changes;
    expect(JSON.stringify(history[0])).toContain('backup-restore');
  });

  it("copies a database beside the live one as <name>_r<day>, a row of the service's own, and refuses a copy at the limit under `target`", async () => {
    const asked = await restore({ part: 'db', path: `/${database}`, target: 'copy' });
    expect(asked.status).toBe(200);
    await drainAll(ctx);
    const done = await restoreRow(asked.body.data.restore.id);
    const day = stampOf(Math.floor(Date.parse(done.time) / 1000)).slice(0, 8);
    expect(done, done.error).toMatchObject({ status: 'done', result: `${database}_r${day}` });
    const list = (await call(ctx, acc, 'admin', `/service/${id}/ddbb/list/`)).body.data.ddbb.map((d: { bbdd: string }) => d.bbdd);
    expect(list.sort()).toEqual([database, `${database}_r${day}`].sort());
    // Two databases now, the service's limit: another copy is refused before it is queued.
    const full = await restore({ part: 'db', path: `/${database}`, target: 'copy' });
    expect(full.status).toBe(400);
    expect(full.body.system.inputs).toEqual(['target']);
  });

  it('answers 409 for a restore from a backup that did not finish', async () => {
    const made = await call(ctx, acc, 'admin', `/service/${id}/backups/`, {});
    expect(made.status).toBe(200);
    const early = await restore({ part: 'web', path: '/', target: 'copy' }, 'admin', made.body.data.backup.id);
    expect(early.status).toBe(409);
    expect(early.body.system.errors).toEqual(['Esta copia no terminó: elige otra']);
  });
});
