import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/store/db.ts';

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

  it('builds a realm with two users and an item granted read to one and write to the other', async () => {
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
    await store.destroy();
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

  it('disables a user and resets a password', () => {
    expect(admin('user-disable', 'cliente.es', 'luis').code).toBe(0);
    expect(admin('user-list', 'cliente.es').out).toMatch(/luis.*\(disabled\)/);
    expect(admin('user-password', 'cliente.es', 'ana', '--password', 'otra-clave-larga').code).toBe(0);
    expect(admin('realm-disable', 'cliente.es').code).toBe(0);
    expect(admin('realm-list').out).toMatch(/cliente\.es\t\(disabled\)/);
  });
});
