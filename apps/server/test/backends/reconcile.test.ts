import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/cli/reconcile.ts';
import { dovecotBackend } from '../../src/drivers/real/dovecot/dovecot.ts';
import { createItem, createRealm } from '../../src/modules/provisioning/accounts.ts';
import { createSecrets, loadSecretKey } from '../../src/secrets.ts';
import { now } from '../../src/store/db.ts';
import { openTestStore } from '../stores.ts';
import { missingBinaries, removeDir, tempDir } from './harness/common.ts';

const skip = missingBinaries('/usr/sbin/postmap');

describe.skipIf(skip)('reconcile between the store and the Dovecot/Postfix files', () => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  let dir: string;
  let mail: Record<string, unknown>;
  beforeAll(async () => {
    dir = await tempDir('reconcile');
    mail = {
      passwdFile: path.join(dir, 'passwd'),
      mailRoot: path.join(dir, 'vmail'),
      uid: 65534,
      gid: 65534,
      aliasMap: path.join(dir, 'virtual'),
      hashMemoryKiB: 8192,
      hashTime: 1,
    };
    ctx = await openTestStore('sqlite', { 'drivers.mail': { driver: 'dovecot', ...mail } });
    await createRealm(ctx.store, 'cliente.test');
    const item = await createItem(ctx.store, { realm: 'cliente.test', reference: 'tienda.test', mail: true });
    const secrets = createSecrets(loadSecretKey(ctx.config.dataDir));
    const t = now();
    await ctx.store
      .insertInto('mail_account')
      .values({ item_id: item.id, name: 'ana', password_secret: secrets.encrypt('Ana-Pass-1'), quota: 1024, created_at: t, job_id: null })
      .execute();
    await ctx.store
      .insertInto('mail_alias')
      .values({ item_id: item.id, name: 'info', targets: 'ana@tienda.test', created_at: t, job_id: null })
      .execute();
  });
  afterAll(async () => {
    await ctx?.cleanup();
    await removeDir(dir);
  });

  it('reports what the backend lacks or has in excess, repairs it, and then finds nothing', async () => {
    const backend = dovecotBackend(mail);
    await backend.ensureMailbox({ address: 'ghost@tienda.test', password: 'x-123456', quota: 0 });
    const secrets = createSecrets(loadSecretKey(ctx.config.dataDir));
    const { differences: found } = await reconcile(ctx.store, ctx.config, secrets, false);
    expect(found.map((d) => `${d.area} ${d.problem} ${d.subject}`).sort()).toEqual([
      'alias missing info@tienda.test',
      'mail extra ghost@tienda.test',
      'mail missing ana@tienda.test',
    ]);
    expect((await backend.list()).mailboxes.map((m) => m.address)).toEqual(['ghost@tienda.test']); // a report changes nothing
    const { differences: repaired } = await reconcile(ctx.store, ctx.config, secrets, true);
    expect(repaired.every((d) => d.outcome === 'repaired')).toBe(true);
    expect(await backend.list()).toMatchObject({
      mailboxes: [{ address: 'ana@tienda.test', quota: 1024 }],
      aliases: [{ address: 'info@tienda.test', targets: ['ana@tienda.test'] }],
    });
    expect((await reconcile(ctx.store, ctx.config, secrets, false)).differences).toEqual([]);
  });

  it("leaves the mail of a service placed on a node to that node: --repair never creates it on the panel's Dovecot, and the report says how many it skipped there", async () => {
    const node = await ctx.store
      .insertInto('node')
      .values({ name: 'web7', host: 'web7', roles: 'web,mail', state: 'active', created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    const item = await createItem(ctx.store, { realm: 'cliente.test', reference: 'remota.test', mail: true });
    await ctx.store.updateTable('item').set({ node_id: node.id }).where('id', '=', item.id).execute();
    const secrets = createSecrets(loadSecretKey(ctx.config.dataDir));
    const t = now();
    for (const name of ['eva', 'luis'])
      await ctx.store
        .insertInto('mail_account')
        .values({ item_id: item.id, name, password_secret: secrets.encrypt('Eva-Pass-1'), quota: 0, created_at: t, job_id: null })
        .execute();
    await ctx.store
      .insertInto('mail_alias')
      .values({ item_id: item.id, name: 'ventas', targets: 'eva@remota.test', created_at: t, job_id: null })
      .execute();

    // The admin command as an operator runs it, with the config file the server reads.
    const configFile = path.join(dir, 'atalaya.config.json');
    writeFileSync(configFile, JSON.stringify({ dataDir: ctx.config.dataDir, drivers: { mail: { driver: 'dovecot', ...mail } } }));
    const cli = path.resolve(import.meta.dirname, '../../src/cli/main.ts');
    const run = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', cli, 'reconcile', '--repair'], {
      env: { ...process.env, ATALAYA_CONFIG: configFile, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).not.toContain('remota.test');
    expect(run.stdout).toContain(
      "Skipped on node web7: 2 mail, 1 alias (placed there: only its agent reaches its daemons, and this command compares the panel machine's own)",
    );
    const held = await dovecotBackend(mail).list();
    expect(held.mailboxes.map((m) => m.address)).toEqual(['ana@tienda.test']);
    expect(held.aliases.map((a) => a.address)).toEqual(['info@tienda.test']);
  });
});
