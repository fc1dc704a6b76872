import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RegistryDriver } from '../../src/drivers/registry/interface.ts';
import { DEFAULT_LIFE_POLICY } from '../../src/drivers/registry/lifecycle.ts';
import { createLocalRegistry } from '../../src/drivers/registry/local.ts';
import { claimRenewals } from '../../src/modules/domain/auto-renew.ts';
import { defaultRegistration } from '../../src/modules/domain/defaults.ts';
import { pollRegistry } from '../../src/modules/domain/poll.ts';
import { ELSEWHERE } from '../../src/modules/provisioning/accounts.ts';
import { type DomainTest, describeRegistries, fieldErrors, holdAtRegistry, OTHER_CLIENT, openDomainTest } from './helpers.ts';

const DAY = 86_400;
const year = (seconds: number) => new Date(seconds * 1000).getUTCFullYear();

describeRegistries('transfers in and out on %s', (kind, registry) => {
  let t: DomainTest;
  /** The registrar account that holds the domains to transfer in, and asks for ours. */
  const other = registry === 'epp' ? OTHER_CLIENT : ELSEWHERE;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry, [
      { reference: 'in.com', domain: true, transferIn: true },
      { reference: 'no.com', domain: true, transferIn: true },
    ]);
    for (const name of ['in.com', 'no.com']) await holdElsewhere(name);
  });
  afterAll(() => t.close());

  /** The local registry as the other registrar account sees it. */
  const otherLocal = (): RegistryDriver => createLocalRegistry(t.ctx.store, t.ctx.app.runtime.secrets, DEFAULT_LIFE_POLICY, other);
  const codes: Record<string, string> = {};

  /** The domain registered by the other registrar account, with a registrant and name servers of its own. */
  async function holdElsewhere(name: string) {
    if (t.registry) {
      codes[name] = 'Tr4nsfer-code!';
      holdAtRegistry(t.registry, name, other, codes[name]);
    } else {
      // Registered there with contacts of its own, as a domain another registrar holds is.
      const registration = await defaultRegistration(t.ctx.app.runtime, t.id(name), name, 'elsewhere.test');
      await otherLocal().create(t.id(name), registration);
      codes[name] = await otherLocal().createAuthInfo(t.id(name));
    }
  }

  /** What the other registrar does: answers our request, or asks for a domain of ours. */
  async function otherDoes(op: 'approve' | 'reject' | 'request', name: string, authCode?: string) {
    if (t.registry) {
      expect(t.registry.transferAs(other, name, op, authCode).code).toBeLessThan(2000);
      return;
    }
    const driver = otherLocal();
    if (op === 'request') await driver.transferRequest(t.id(name), authCode!, 1);
    else await (op === 'approve' ? driver.transferApprove(t.id(name)) : driver.transferReject(t.id(name)));
  }

  /** The registry's message queue read as the schedule reads it (nothing on the local registry, which has none). */
  const poll = () => pollRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry);
  const domain = async (name: string, user?: string) => (await t.get(`/domain/${t.id(name)}/?language=en`, user)).body.data;
  const transfer = async (name: string, user?: string) => (await t.get(`/domain/${t.id(name)}/transfer/?language=en`, user)).body.data;
  const ledger = (name: string) =>
    t.ctx.store.selectFrom('billing_event').selectAll().where('item_id', '=', t.id(name)).where('action', '=', 'transfer_in').execute();
  const changes = (name: string) => t.ctx.store.selectFrom('registry_change').selectAll().where('item_id', '=', t.id(name)).execute();

  it('shows a domain held at another registrar as waiting for its transfer in, and never registers it', async () => {
    const answer = await domain('in.com');
    expect(answer.domain).toMatchObject({ name: 'in.com', heldBy: other, transferIn: true, pendingTransfer: false });
    expect(answer.registrant).toBeNull();
    expect(await transfer('in.com')).toMatchObject({ direction: 'in', status: 'none', heldBy: other, transferIn: true, change: null });
    if (t.registry) expect(t.registry.state.data.domains['in.com'].clID).toBe(other);
    else {
      // The contacts the other registrar registered it with, none of this panel's.
      const held = await t.ctx.store.selectFrom('domain_contact').select('org_name').where('item_id', '=', t.id('in.com')).execute();
      expect(held.map((c) => c.org_name)).toEqual(Array(4).fill('elsewhere.test'));
    }
  });

  it('refuses a wrong auth code under its field and queues nothing', async () => {
    const res = await t.post(`/domain/${t.id('in.com')}/transfer/request/?language=en`, { authCode: 'not-the-code' });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ authCode: 'The authorisation code is wrong: ask the current registrar for it again' });
    expect(await changes('in.com')).toHaveLength(0);
  });

  it('lets only a domain writer request a transfer in', async () => {
    for (const user of ['r', 'd']) {
      const res = await t.post(`/domain/${t.id('in.com')}/transfer/request/`, { authCode: codes['in.com'] }, user);
      expect(res.status).toBe(403);
    }
    expect(await changes('in.com')).toHaveLength(0);
  });

  it("refuses another realm's domain id with 404", async () => {
    const res = await t.post(`/domain/${t.id('other.com')}/transfer/request/`, { authCode: 'whatever' });
    expect(res.status).toBe(404);
    expect((await t.get(`/domain/${t.id('other.com')}/transfer/`)).status).toBe(404);
    expect((await t.post(`/domain/${t.id('other.com')}/transfer/approve/`, {})).status).toBe(404);
  });

  it('refuses a transfer in of a domain that is ours already', async () => {
    const res = await t.post(`/domain/${t.id('y.com')}/transfer/request/?language=en`, { authCode: 'whatever' });
    expect(res.status).toBe(409);
    expect(res.body.system.errors).toEqual(['The domain is already in this account: there is nothing to transfer']);
  });

  it('requests with the right code, pending until the current registrar approves; the outcome completes it, reads the domain in and bills it once', async () => {
    const before = await domain('in.com');
    const asked = await t.post(`/domain/${t.id('in.com')}/transfer/request/?language=en`, { authCode: codes['in.com'] });
    expect(asked.status).toBe(200);
    expect(asked.body.system.info).toEqual(['Transfer requested: the current registrar has 5 days to answer']);
    const pending = await transfer('in.com');
    expect(pending).toMatchObject({ direction: 'in', status: 'pending', change: { action: 'transferRequest', state: 'pending' } });
    expect(pending.approveAt - pending.requestedAt).toBe(5 * DAY);
    expect((await domain('in.com')).domain.pendingTransfer).toBe(true);
    // The code is never kept in clear.
    expect(JSON.stringify(await changes('in.com'))).not.toContain(codes['in.com']);

    await otherDoes('approve', 'in.com');
    await poll();
    const arrived = await domain('in.com');
    expect(arrived.domain).toMatchObject({ heldBy: null, transferIn: false, pendingTransfer: false });
    expect(year(arrived.domain.expireTS)).toBe(year(before.domain.expireTS) + 1);
    expect(arrived.registrant).not.toBeNull();
    if (t.registry) {
      expect(arrived.registrant.name).toBe('Berta Otero');
      expect(arrived.domain.dns.servers).toEqual(['ns1.elsewhere.net', 'ns2.elsewhere.net']);
    }
    expect(await transfer('in.com')).toMatchObject({ direction: 'in', status: 'clientApproved', change: null });
    const stored = await t.ctx.store
      .selectFrom('domain')
      .select(['expire_at', 'transfer_in'])
      .where('item_id', '=', t.id('in.com'))
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ expire_at: arrived.domain.expireTS, transfer_in: 0 });
    await poll();
    await domain('in.com');
    expect(await ledger('in.com')).toMatchObject([{ domain: 'in.com', years: 1, expire_at: arrived.domain.expireTS }]);
  });

  it('shows a transfer in the current registrar rejects as failed, with why, and bills nothing', async () => {
    expect((await t.post(`/domain/${t.id('no.com')}/transfer/request/`, { authCode: codes['no.com'] })).status).toBe(200);
    await otherDoes('reject', 'no.com');
    await poll();
    const view = await transfer('no.com');
    expect(view).toMatchObject({
      status: 'clientRejected',
      heldBy: other,
      change: { action: 'transferRequest', state: 'failed', message: 'The current registrar rejected the transfer' },
    });
    expect((await domain('no.com')).domain).toMatchObject({ heldBy: other, transferIn: true });
    expect(await ledger('no.com')).toHaveLength(0);
  });

  it("shows another registrar's request with who and when it is approved automatically, and lets only a domain_authcode writer approve it", async () => {
    const code = (await t.get(`/domain/${t.id('y.com')}/authcode/`)).body.data.authCode;
    await otherDoes('request', 'y.com', code);
    await poll();
    expect((await domain('y.com')).domain.pendingTransfer).toBe(true);
    const view = await transfer('y.com', 'd');
    expect(view).toMatchObject({ direction: 'out', status: 'pending', requestedBy: other, heldBy: null });
    expect(view.approveAt - view.requestedAt).toBe(5 * DAY);
    // Read-only on the area: refused; without the auth-code area at all, the call is not there.
    expect((await t.post(`/domain/${t.id('y.com')}/transfer/approve/`, {}, 'r')).status).toBe(403);
    expect((await t.post(`/domain/${t.id('y.com')}/transfer/approve/`, {}, 'd')).status).toBe(404);
    expect((await transfer('y.com')).status).toBe('pending');

    const approved = await t.post(`/domain/${t.id('y.com')}/transfer/approve/?language=en`, {});
    expect(approved.status).toBe(200);
    expect(approved.body.system.info).toEqual(['Transfer approved: the domain moves to the other registrar']);
    await poll();
    expect(await transfer('y.com')).toMatchObject({ direction: 'out', status: 'clientApproved', heldBy: other, change: null });
    expect((await domain('y.com')).domain).toMatchObject({ heldBy: other, transferIn: false, pendingTransfer: false });
  });

  it("rejects another registrar's request: the domain stays here", async () => {
    const code = (await t.get(`/domain/${t.id('z.eu')}/authcode/`)).body.data.authCode;
    await otherDoes('request', 'z.eu', code);
    await poll();
    const res = await t.post(`/domain/${t.id('z.eu')}/transfer/reject/?language=en`, {});
    expect(res.status).toBe(200);
    expect(res.body.system.info).toEqual(['Transfer rejected: the domain stays here']);
    expect(await transfer('z.eu')).toMatchObject({ direction: 'out', status: 'clientRejected', heldBy: null });
    expect((await domain('z.eu')).domain).toMatchObject({ heldBy: null, pendingTransfer: false });
  });

  it('refuses to approve or reject when no transfer waits for an answer', async () => {
    for (const answer of ['approve', 'reject']) {
      const res = await t.post(`/domain/${t.id('x.es')}/transfer/${answer}/?language=en`, {});
      expect(res.status).toBe(409);
      expect(res.body.system.errors).toEqual(['There is no pending transfer to answer']);
    }
  });

  it('never claims a domain still waiting for its transfer in, or one transferred out, for the renewal schedule', async () => {
    const claimed = await t.ctx.store.transaction().execute((trx) => claimRenewals(trx, 3650, 45, Math.floor(Date.now() / 1000)));
    const names = claimed.map((c) => c.name);
    expect(names).toContain('x.es');
    expect(names).not.toContain('no.com');
    expect(names).not.toContain('y.com');
  });
});
