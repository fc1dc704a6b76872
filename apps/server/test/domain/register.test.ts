import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RegistryDriver } from '../../src/drivers/registry/interface.ts';
import { bearerOf, send } from '../fixtures.ts';
import { type DomainTest, describeRegistries, openDomainTest } from './helpers.ts';

/** The registry calls that change something at the registry: a read must make none of them. */
const WRITES = [
  'create',
  'updateStatus',
  'setPrivacy',
  'setNameServers',
  'createHost',
  'updateHost',
  'deleteHost',
  'addSecDns',
  'removeSecDns',
  'updateContacts',
  'createAuthInfo',
  'renew',
  'restore',
  'regenerateAuthInfo',
  'transferRequest',
  'transferApprove',
  'transferReject',
  'transferCancel',
] as const;

/** Counts each registry driver call the app makes, by name (the app's driver itself, wrapped in place). */
function countCalls(driver: RegistryDriver) {
  const calls: string[] = [];
  const methods = driver as unknown as Record<string, unknown>;
  for (const [name, value] of Object.entries(methods)) {
    if (typeof value !== 'function') continue;
    const original = value as (...args: unknown[]) => unknown;
    methods[name] = (...args: unknown[]) => {
      calls.push(name);
      return original.apply(driver, args);
    };
  }
  return { writes: () => calls.filter((name) => (WRITES as readonly string[]).includes(name)), reset: () => calls.splice(0) };
}

describeRegistries('registering a domain is an action, never a read (decision 051) on %s', (kind, registry) => {
  let t: DomainTest;
  let calls: ReturnType<typeof countCalls>;
  const atRegistry = (name: string) => (registry === 'epp' ? name in t.registry!.state.data.domains : null);
  const billed = (itemId: number) =>
    t.ctx.store.selectFrom('billing_event').selectAll().where('item_id', '=', itemId).where('action', '=', 'register').execute();

  beforeAll(async () => {
    t = await openDomainTest(kind, registry, [
      { reference: 'new.com', domain: true, unregistered: true },
      { reference: 'twice.com', domain: true, unregistered: true },
      { reference: 'token.com', domain: true, unregistered: true },
    ]);
    calls = countCalls(t.ctx.app.runtime.drivers.registry);
  });
  afterAll(() => t.close());

  it('a viewer’s and a writer’s read of a domain the registry has not got make no registry command, and read it as not registered', async () => {
    const id = t.id('new.com');
    calls.reset();
    for (const user of ['r', 'd', 'w']) {
      const { status, body } = await t.get(`/domain/${id}/`, user);
      expect(status).toBe(200);
      expect(body.data.domain).toMatchObject({ name: 'new.com', registered: false, hasAuthCode: false, heldBy: null });
      expect(body.data.registrant).toBeNull();
    }
    // The calls that act on a registered domain have nothing to act on, and write nothing either.
    const dns = await t.get(`/domains/${id}/dnsinit/?language=en`, 'w');
    expect(dns.status).toBe(409);
    expect(dns.body.system.errors).toEqual(['The domain is not registered yet: register it before making changes']);
    expect((await t.get(`/domain/${id}/toggle/block/`, 'w')).status).toBe(409);
    expect((await t.get(`/domain/${id}/authcode/`, 'w')).status).toBe(409);
    expect(calls.writes()).toEqual([]);
    if (registry === 'epp') expect(atRegistry('new.com')).toBe(false);
    // The registered ones read as registered.
    expect((await t.get(`/domain/${t.id('y.com')}/`, 'r')).body.data.domain.registered).toBe(true);
  });

  it('registers on a domain writer’s call through the queue, and bills it once however often it is sent or its job runs', async () => {
    const id = t.id('twice.com');
    const first = await t.postQueued(`/domain/${id}/register/`, {}, 'w');
    expect(first.status).toBe(200);
    expect(first.body.data.domain.registered).toBe(false);
    expect(first.body.data.changes).toEqual([expect.objectContaining({ action: 'register', state: 'pending' })]);
    // Sent again while the first is on its way: refused, nothing more queued.
    const again = await t.postQueued(`/domain/${id}/register/?language=en`, {}, 'w');
    expect(again.status).toBe(409);
    expect(again.body.system.errors).toEqual(['The domain is being registered already']);
    expect(await billed(id)).toEqual([]);
    await t.drain();
    const { body } = await t.get(`/domain/${id}/`, 'r');
    expect(body.data.domain).toMatchObject({ registered: true, hasAuthCode: true });
    expect(body.data.changes).toEqual([]);
    if (registry === 'epp') expect(atRegistry('twice.com')).toBe(true);
    const lines = await billed(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ domain: 'twice.com', years: 1, actor: `user:${t.account.users.w}` });
    // The job run again (a lease taken over after a crash that lost its settling): the registry
    // keeps the one domain and the ledger the one line.
    const change = await t.ctx.store.selectFrom('registry_change').selectAll().where('item_id', '=', id).executeTakeFirstOrThrow();
    await t.ctx.store.updateTable('registry_change').set({ state: 'queued' }).where('id', '=', change.id).execute();
    await t.ctx.store.updateTable('job').set({ status: 'pending', next_at: 0 }).where('id', '=', change.job_id!).execute();
    await t.drain();
    expect(
      (await t.ctx.store.selectFrom('registry_change').select('state').where('id', '=', change.id).executeTakeFirstOrThrow()).state,
    ).toBe('done');
    expect(await billed(id)).toHaveLength(1);
    // Registered: a register call now is refused.
    const late = await t.post(`/domain/${id}/register/?language=en`, {}, 'w');
    expect(late.status).toBe(409);
    expect(late.body.system.errors).toEqual(['The domain is registered already']);
    expect(await billed(id)).toHaveLength(1);
  });

  it('refuses the register call to a reader (403) and another realm (404), and to a token without write on the domain', async () => {
    const id = t.id('token.com');
    calls.reset();
    expect((await t.post(`/domain/${id}/register/`, {}, 'r')).status).toBe(403);
    expect((await t.post(`/domain/${id}/register/`, {}, 'd')).status).toBe(403);
    const stranger = await send(t.ctx.app, 'POST', `/domain/${id}/register/`, await t.other.as('o'), {});
    expect(stranger.status).toBe(404);
    const token = (scope: string) => bearerOf(t.ctx.store, t.account.users.w, scope);
    expect((await send(t.ctx.app, 'POST', `/domain/${id}/register/`, await token('all=read'), {})).status).toBe(403);
    expect((await send(t.ctx.app, 'POST', `/domain/${id}/register/`, await token('domain_dns=write'), {})).status).toBe(404);
    await t.drain();
    expect(calls.writes()).toEqual([]);
    expect(await billed(id)).toEqual([]);
    // A token that writes the domain may register it (a billing script's purchase), billed to it.
    const writer = await send(t.ctx.app, 'POST', `/domain/${id}/register/`, await token('domain=write'), {});
    expect(writer.status).toBe(200);
    await t.drain();
    expect(calls.writes()).toEqual(['create']);
    expect((await billed(id))[0].actor).toMatch(/^token:\d+:user:\d+$/);
  });
});
