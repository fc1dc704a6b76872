import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountError, createItem, createRealm, createUser, grant, parsePermissionMap } from '../src/modules/provisioning/accounts.ts';
import { hashSecret } from '../src/secrets.ts';
import { openStore } from '../src/store/db.ts';
import { runAdmin } from './admin.ts';
import { type Account, createAccount, send } from './fixtures.ts';
import { describeStores, openTestApp, type TestContext } from './stores.ts';

describeStores('the admin CLI token commands on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { ana: 'all=write', lector: 'all=read' },
      items: [
        { reference: 'cli-uno.es', domain: true, service: 'normal' },
        { reference: 'cli-dos.es', domain: true, service: 'normal' },
      ],
    });
  });
  afterAll(() => ctx.close());

  it('creates a token printed once, lists it without the secret, and revokes it so its next call answers 401', async () => {
    const out = await runAdmin(ctx.app.runtime, 'token-create', [acc.realm, 'ana'], {
      name: 'backup script',
      scope: 'all=read,service_dnszone=write',
      items: 'cli-uno.es',
      expires: '2099-06-30',
      cidr: '127.0.0.0/8,::1/128',
    });
    const token = /atl_[A-Za-z0-9_-]{43}/.exec(out)?.[0];
    expect(token).toBeDefined();
    const row = await ctx.store.selectFrom('api_token').selectAll().where('secret_hash', '=', hashSecret(token!)).executeTakeFirstOrThrow();
    const zone = (item: string) => `/service/${acc.items[item]}/dns/list/`;
    expect((await send(ctx.app, 'GET', zone('cli-uno.es'), { authorization: `Bearer ${token}` })).status).toBe(200);
    expect((await send(ctx.app, 'GET', zone('cli-dos.es'), { authorization: `Bearer ${token}` })).status).toBe(404);

    const list = await runAdmin(ctx.app.runtime, 'token-list', [acc.realm]);
    expect(list).toContain(`${row.id}\tana\tbackup script\t`);
    expect(list).toContain('service_dnszone=write');
    expect(list).toContain('\tcli-uno.es\t127.0.0.0/8,::1/128\texpires 2099-06-30\tlast used ');
    expect(list).not.toContain(token!.slice(4));

    expect(await runAdmin(ctx.app.runtime, 'token-revoke', [acc.realm, 'ana', String(row.id)])).toBe(
      `Token ${row.id} of ana@${acc.realm} revoked`,
    );
    expect((await send(ctx.app, 'GET', zone('cli-uno.es'), { authorization: `Bearer ${token}` })).status).toBe(401);
    expect(await runAdmin(ctx.app.runtime, 'token-list', [acc.realm, 'ana'])).toBe('No tokens');
  });

  it.each([
    [{ name: 'x', scope: 'all=write' }, 'lector', /--scope: A token cannot have more permission than you have/],
    [{ name: 'x', scope: 'all=disabled' }, 'lector', /--scope: Choose at least one area/],
    [{ name: 'x', scope: 'all=owner' }, 'lector', /"owner" is not a level/],
    [{ name: 'x' }, 'lector', /--scope is required/],
    [{ scope: 'all=read' }, 'lector', /--name is required/],
    [{ name: 'x', scope: 'all=read', items: 'nada.es' }, 'lector', /No item "nada.es"/],
    [{ name: 'x', scope: 'all=read', cidr: '10.0.0.0/40' }, 'lector', /"10.0.0.0\/40" is not an address range/],
    [{ name: 'x', scope: 'all=read', expires: '2020-01-01' }, 'lector', /--expires: The expiry date must be after today/],
    [{ name: 'x', scope: 'all=read', expires: 'tomorrow' }, 'lector', /--expires must be a date as YYYY-MM-DD/],
  ])('refuses %o for %s with a message that says what is expected', async (values, user, message) => {
    await expect(runAdmin(ctx.app.runtime, 'token-create', [acc.realm, user], values)).rejects.toThrow(message);
    await expect(runAdmin(ctx.app.runtime, 'token-create', [acc.realm, user], values)).rejects.toBeInstanceOf(AccountError);
  });

  it("refuses to revoke a token that is not the user's", async () => {
    await runAdmin(ctx.app.runtime, 'token-create', [acc.realm, 'ana'], { name: 'keep', scope: 'all=read' });
    const row = await ctx.store.selectFrom('api_token').select('id').where('user_id', '=', acc.users.ana).executeTakeFirstOrThrow();
    await expect(runAdmin(ctx.app.runtime, 'token-revoke', [acc.realm, 'lector', String(row.id)])).rejects.toThrow(
      `lector@${acc.realm} has no token ${row.id}`,
    );
    expect(await ctx.store.selectFrom('api_token').select('id').where('id', '=', row.id).executeTakeFirst()).toBeDefined();
  });
});

describe('the admin CLI token-create command line', () => {
  const CLI = path.resolve(import.meta.dirname, '../src/cli/main.ts');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-cli-tokens-'));
  const admin = (...args: string[]) => {
    const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args], {
      env: { ...process.env, ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' },
      encoding: 'utf8',
    });
    return { code: result.status, out: result.stdout, err: result.stderr };
  };

  it('prints the token once on standard output and refuses a bad option with exit code 2', { timeout: 120_000 }, async () => {
    const store = await openStore({ dataDir });
    try {
      await createRealm(store, 'tokens.test');
      await createUser(store, 'tokens.test', 'ana', 'una-clave-larga');
      await createItem(store, { realm: 'tokens.test', reference: 'cli-tres.es', domain: true });
      await grant(store, 'tokens.test', 'ana', 'cli-tres.es', parsePermissionMap('all=write'));
    } finally {
      await store.destroy();
    }
    const created = admin('token-create', 'tokens.test', 'ana', '--name', 'ci', '--scope', 'domain=read', '--expires', '2099-01-31');
    expect(created.err).toBe('');
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/^Token \d+ of ana@tokens\.test created; it is shown only now:\natl_[A-Za-z0-9_-]{43}\n$/);
    const bad = admin('token-create', 'tokens.test', 'ana', '--name', 'ci', '--scope', 'domain=read', '--cidr', 'everywhere');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('"everywhere" is not an address range');
  });
});
