import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCredentials, dummyHash } from '../../src/modules/account/credentials.ts';
import { createRealm, createUser, setDisabled } from '../../src/modules/provisioning/accounts.ts';
import { verifyPassword } from '../../src/passwords.ts';
import { type Account, createAccount, TEST_PASSWORD } from '../fixtures.ts';
import { openTestStore } from '../stores.ts';

/**
 * No timed assertions: the similar answer time is proved by structure. Every path, known user or
 * not, runs exactly one argon2id verify, against the user's hash or against a dummy one.
 */
describe('checking credentials', () => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  let acc: Account;
  beforeAll(async () => {
    ctx = await openTestStore('sqlite');
    acc = await createAccount(ctx.store, { users: { ana: 'all=write', off: 'all=write' }, items: [{ reference: 'one.es', domain: true }] });
    await setDisabled(ctx.store, { realm: acc.realm, username: 'off' }, true);
  });
  afterAll(() => ctx.cleanup());

  const run = async (domainName: string, username: string, password: string) => {
    const hashes: string[] = [];
    const result = await checkCredentials(ctx.store, { domainName, username, password }, async (hash, pw) => {
      hashes.push(hash);
      return verifyPassword(hash, pw);
    });
    return { result, hashes };
  };

  it.each([
    ['an unknown realm', 'nowhere.test', 'ana'],
    ['an unknown user', null, 'nobody'],
  ])('runs one argon2id verify against a dummy hash for %s', async (_case, realm, username) => {
    const { result, hashes } = await run(realm ?? acc.realm, username, TEST_PASSWORD);
    expect(result.user).toBeNull();
    expect(hashes).toEqual([await dummyHash()]);
    expect(hashes[0]).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('runs one verify against the user hash for a wrong password, with the same cost parameters', async () => {
    const { result, hashes } = await run(acc.realm, 'ana', 'wrong-password');
    expect(result).toMatchObject({ user: null, known: { id: acc.users.ana } });
    expect(hashes).toHaveLength(1);
    expect(hashes[0]).not.toBe(await dummyHash());
    expect(hashes[0].split('$').slice(0, 4)).toEqual((await dummyHash()).split('$').slice(0, 4));
  });

  it('verifies the password of a disabled user too, then refuses it', async () => {
    const { result, hashes } = await run(acc.realm, 'off', TEST_PASSWORD);
    expect(result).toMatchObject({ user: null, known: { id: acc.users.off } });
    expect(hashes).toHaveLength(1);
  });

  it('refuses the right password of a user whose realm is disabled, after one verify all the same', async () => {
    const other = await createAccount(ctx.store, { users: { ana: 'all=write' }, items: [{ reference: 'two.es', domain: true }] });
    await setDisabled(ctx.store, { realm: other.realm }, true);
    const { result, hashes } = await run(other.realm, 'ana', TEST_PASSWORD);
    expect(result).toMatchObject({ user: null, known: { id: other.users.ana } });
    expect(hashes).toHaveLength(1);
    await setDisabled(ctx.store, { realm: other.realm }, false);
    expect((await run(other.realm, 'ana', TEST_PASSWORD)).result.user).toMatchObject({ id: other.users.ana });
  });

  it('finds a realm with an international name typed in Unicode, and a user typed with spaces and capitals', async () => {
    const realm = await createRealm(ctx.store, `pingüino-${acc.realm}`);
    expect(realm.name).toMatch(/^xn--/);
    const user = await createUser(ctx.store, realm.name, 'lola', TEST_PASSWORD);
    const { result } = await run(`  Pingüino-${acc.realm.toUpperCase()} `, '  LOLA ', TEST_PASSWORD);
    expect(result.user).toMatchObject({ id: user.id });
    expect(result.realmName).toBe(realm.name);
  });

  it('accepts the right password, with the realm typed in capitals', async () => {
    const { result } = await run(acc.realm.toUpperCase(), 'ana', TEST_PASSWORD);
    expect(result.user).toEqual({ id: acc.users.ana, realmId: expect.any(Number) });
  });
});
