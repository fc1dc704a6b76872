import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config/config.ts';
import { createSession } from '../src/modules/session/sessions.ts';
import { hashPassword } from '../src/passwords.ts';
import { openStore } from '../src/store/db.ts';
import { login, sessionToken, withSession } from './account/helpers.ts';
import type { TestContext } from './stores.ts';

const CLI = path.resolve(import.meta.dirname, '../src/cli/main.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-cli-'));

function admin(...args: string[]) {
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args], {
    env: { ...process.env, ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('the admin CLI', () => {
  it('answers help with the list of commands on standard output and exit code 0, as the README says', () => {
    for (const asked of ['help', '--help']) {
      const help = admin(asked);
      expect(help.code).toBe(0);
      expect(help.err).toBe('');
      expect(help.out).toContain('  realm-list\n');
      expect(help.out).toContain('  grant <realm> <username> <reference> <areas>');
    }
  });

  it('refuses an unknown command with exit code 2 and the list of commands', () => {
    const unknown = admin('realm-destroy');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/Unknown command "realm-destroy"[\s\S]*realm-create <domain-name>/);
  });

  // Nine CLI processes, each starting Node and opening the store: minutes on a loaded 2-core machine.
  it('builds a realm with two users and an item granted read to one and write to the other', { timeout: 120_000 }, async () => {
    expect(admin('realm-create', 'cliente.es').code).toBe(0);
    expect(admin('user-create', 'cliente.es', 'ana', '--password', 'una-clave-larga').code).toBe(0);
    const generated = admin('user-create', 'cliente.es', 'luis');
    expect(generated.code).toBe(0);
    expect(generated.out).toMatch(/password: \S{10,}/);
    expect(admin('item-create', 'cliente.es', 'tienda.es', '--domain', '--service', 'normal', '--mail').code).toBe(0);
    expect(admin('service-limits', 'cliente.es', 'tienda.es', '--databases', '3', '--web', '2048').code).toBe(0);
    expect(admin('grant', 'cliente.es', 'ana', 'tienda.es', 'all=write').code).toBe(0);
    expect(admin('grant', 'cliente.es', 'luis', 'tienda.es', 'all=read,domain_authcode=disabled').code).toBe(0);
    expect(admin('item-list', 'cliente.es').out).toContain('tienda.es\tdomain service:normal mail');
    expect(admin('user-list', 'cliente.es').out).toMatch(/ana.*\n.*luis/);

    const store = await openStore({ dataDir });
    const rows = await store
      .selectFrom('permission')
      .innerJoin('user', 'user.id', 'permission.user_id')
      .select(['user.username', 'permission.area', 'permission.level'])
      .where('permission.area', 'in', ['domain', 'domain_authcode'])
      .orderBy('user.username')
      .orderBy('permission.area')
      .execute();
    const service = await store.selectFrom('service').select(['limit_databases', 'limit_space_web']).executeTakeFirstOrThrow();
    // The mail domain's keys are made by the server's worker: the CLI leaves their job queued.
    const dkim = await store.selectFrom('job').select(['status', 'item_id']).where('kind', '=', 'service.dkim.apply').execute();
    const item = await store.selectFrom('item').select('id').where('reference', '=', 'tienda.es').executeTakeFirstOrThrow();
    await store.destroy();
    expect(dkim).toEqual([{ status: 'pending', item_id: item.id }]);
    expect(rows).toEqual([
      { username: 'ana', area: 'domain', level: 'write' },
      { username: 'ana', area: 'domain_authcode', level: 'write' },
      { username: 'luis', area: 'domain', level: 'read' },
      { username: 'luis', area: 'domain_authcode', level: 'disabled' },
    ]);
    expect(service).toEqual({ limit_databases: 3, limit_space_web: 2048 * 1024 * 1024 });
  });

  it.each([
    [['realm-create', 'not a domain'], /not a valid domain name/],
    [['realm-create', 'cliente.es'], /already exists/],
    [['user-create', 'nowhere.es', 'x'], /No realm named "nowhere.es"/],
    [['user-create', 'cliente.es', 'Bad User!'], /not a valid username/],
    [['user-create', 'cliente.es', 'eva', '--password', 'short'], /between 10 and 128/],
    [['item-create', 'cliente.es', 'otra.es'], /needs a domain, a hosting service or a mail service/],
    [['item-create', 'cliente.es', 'otra.es', '--service', 'vps'], /--service must be normal or parking/],
    [['item-create', 'cliente.es', 'otra.es', '--domain', '--expires', 'tomorrow'], /YYYY-MM-DD/],
    [['item-create', 'cliente.es', 'otra.es', '--mail', '--transfer-in'], /--transfer-in needs --domain/],
    [['item-create', 'cliente.es', 'otra.es', '--mail', '--register'], /--register needs --domain/],
    [['item-create', 'cliente.es', 'otra.es', '--domain', '--register', '--expires', '2030-01-01'], /leave out --expires/],
    [['grant', 'cliente.es', 'ana', 'tienda.es', 'domain=admin'], /"admin" is not a level/],
    [['grant', 'cliente.es', 'ana', 'tienda.es', 'root=write'], /"root" is not an area/],
    [['service-limits', 'cliente.es', 'tienda.es', '--databases=-1'], /whole number/],
    [['user-create', 'cliente.es'], /Usage: npm run admin -- user-create <realm> <username>/],
    [['frobnicate'], /Unknown command "frobnicate"/],
    [['realm-list', '--colour'], /Unknown option '--colour'/],
  ])('refuses %j with a clear message and a non-zero exit', (args, message) => {
    const result = admin(...(args as string[]));
    expect(result.code).not.toBe(0);
    expect(result.err).toMatch(message);
  });

  it('registers a domain only with --register: a registry change queued for the worker, none without it', async () => {
    expect(admin('item-create', 'cliente.es', 'sola.es', '--domain').out).toMatch(/sola\.es created\n$/);
    const registered = admin('item-create', 'cliente.es', 'alta.es', '--domain', '--register');
    expect(registered.code).toBe(0);
    expect(registered.out).toMatch(/alta\.es created, its registration queued \(change \d+\)/);
    const store = await openStore({ dataDir });
    const changes = await store
      .selectFrom('registry_change')
      .innerJoin('item', 'item.id', 'registry_change.item_id')
      .innerJoin('job', 'job.id', 'registry_change.job_id')
      .select(['item.reference', 'registry_change.action', 'registry_change.state', 'job.status'])
      .where('item.reference', 'in', ['sola.es', 'alta.es'])
      .execute();
    await store.destroy();
    expect(changes).toEqual([{ reference: 'alta.es', action: 'register', state: 'queued', status: 'pending' }]);
  });

  it('creates an item for a domain held at another registrar, waiting for its transfer in', async () => {
    const created = admin('item-create', 'cliente.es', 'llega.es', '--domain', '--transfer-in');
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/llega\.es created, waiting for its transfer in/);
    const store = await openStore({ dataDir });
    const row = await store
      .selectFrom('domain')
      .select(['transfer_in', 'sponsor'])
      .where('name', '=', 'llega.es')
      .executeTakeFirstOrThrow();
    await store.destroy();
    expect(row).toEqual({ transfer_in: 1, sponsor: 'elsewhere' });
  });

  it('refuses a name another realm holds, or one inside or above it, saying whose it is', () => {
    expect(admin('realm-create', 'rival.test').code).toBe(0);
    // tienda.es belongs to cliente.es (created above).
    for (const [reference, message] of [
      ['tienda.es', /"tienda\.es" belongs to realm "cliente\.es": a name has one owner in the whole installation/],
      ['TIENDA.es.', /"tienda\.es" belongs to realm "cliente\.es"/],
      ['shop.tienda.es', /"shop\.tienda\.es" is inside "tienda\.es", which belongs to realm "cliente\.es"/],
    ] as const) {
      const refused = admin('item-create', 'rival.test', reference, '--service', 'normal', '--mail');
      expect(refused.code, reference).toBe(2);
      expect(refused.err).toMatch(message);
    }
    expect(admin('item-create', 'rival.test', 'sub.rival-shop.es', '--mail').code).toBe(0);
    const above = admin('item-create', 'cliente.es', 'rival-shop.es', '--domain');
    expect(above.code).toBe(2);
    expect(above.err).toMatch(/"rival-shop\.es" holds "sub\.rival-shop\.es", which belongs to realm "rival\.test"/);
    expect(admin('item-list', 'rival.test').out).not.toContain('tienda.es');
  });

  it('disables a user and resets a password: the panel then refuses them as it should', async () => {
    // The panel over the CLI's store, as a server process beside the CLI would be.
    const config = loadConfig({ ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' });
    const store = await openStore(config);
    const app = await buildApp({ config, store, worker: false });
    const ctx = { app, store, config } as TestContext;
    try {
      const signIn = (username: string, password: string) => login(ctx, { domainName: 'cliente.es', username, password }, {}, '10.7.7.7');
      const luisId = (await store.selectFrom('user').select('id').where('username', '=', 'luis').executeTakeFirstOrThrow()).id;
      const luisSession = withSession(await createSession(store, luisId));
      const info = async (headers: Record<string, string>) =>
        (await app.inject({ method: 'POST', url: '/p247/user/info/', headers })).json().system.statusCode;
      expect(await info(luisSession)).toBe(200);

      expect(admin('user-disable', 'cliente.es', 'luis').code).toBe(0);
      expect(admin('user-list', 'cliente.es').out).toMatch(/luis.*\(disabled\)/);
      expect(await info(luisSession)).toBe(101);
      await store
        .updateTable('user')
        .set({ password_hash: await hashPassword('la-de-luis-1') })
        .where('id', '=', luisId)
        .execute();
      expect((await signIn('luis', 'la-de-luis-1')).statusCode).toBe(401);
      expect(admin('user-disable', 'cliente.es', 'luis', '--enable').code).toBe(0);
      expect((await signIn('luis', 'la-de-luis-1')).statusCode).toBe(200);

      const anaSession = sessionToken(await signIn('ana', 'una-clave-larga'))!;
      expect(await info(withSession(anaSession))).toBe(200);
      expect(admin('user-password', 'cliente.es', 'ana', '--password', 'otra-clave-larga').code).toBe(0);
      expect(await info(withSession(anaSession))).toBe(101);
      expect((await signIn('ana', 'una-clave-larga')).statusCode).toBe(401);
      const fresh = sessionToken(await signIn('ana', 'otra-clave-larga'))!;
      expect(await info(withSession(fresh))).toBe(200);

      expect(admin('realm-disable', 'cliente.es').code).toBe(0);
      expect(admin('realm-list').out).toMatch(/cliente\.es\t\(disabled\)/);
      expect(await info(withSession(fresh))).toBe(101);
      expect((await signIn('ana', 'otra-clave-larga')).statusCode).toBe(401);
    } finally {
      await app.close();
      await store.destroy();
    }
  });
});
