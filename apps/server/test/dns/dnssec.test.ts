import { parseLevels } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dsOf } from '../../src/drivers/dns/dnssec.ts';
import { createToken } from '../../src/modules/token/tokens.ts';
import { createAccount, registerDomains, send } from '../fixtures.ts';
import { describeStores } from '../stores.ts';
import { type DnsTest, dnssecStepNow, openDnsTest } from './helpers.ts';

describeStores('the DNSSEC switch on %s', (kind) => {
  let t: DnsTest;
  beforeAll(async () => {
    t = await openDnsTest(kind, { 'drivers.dns': { dsTtl: 3600 } });
  });
  afterAll(() => t.ctx.close());
  const drain = () => t.ctx.app.runtime.outbox.drain();
  const registry = () => t.ctx.app.runtime.drivers.registry;
  const domainDs = async () =>
    (await t.ctx.app.inject({ method: 'GET', url: `/p247/domain/${t.id}/dnssec/list/`, headers: t.w })).json().data.dnssec;

  it('starts unsigned, with no keys and no DS', async () => {
    const reply = await t.get('dnssec/');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ state: 'off', registrar: true, keys: [], ds: [] });
  });

  const pastDue = () =>
    t.ctx.store
      .updateTable('dns_zone')
      .set({ dnssec_due_at: Math.floor(Date.now() / 1000) - 1 })
      .where('item_id', '=', t.id)
      .execute();
  const steps = async () => {
    await t.ctx.app.runtime.scheduler.runNow('dnssec-steps');
    await drain();
  };

  it('signs the zone at once but places no DS until the DNSKEY has been served for its TTL', async () => {
    const reply = await t.post('dnssec/', { enabled: 1 });
    expect(reply.status).toBe(200);
    expect(reply.body.data.state).toBe('signing');
    expect(reply.body.system.job).toBeGreaterThan(0);
    await drain();
    const state = (await t.get('dnssec/')).body.data;
    expect(state.state).toBe('publishing');
    expect(state.keys).toHaveLength(1);
    expect(state.ds).toEqual([expect.objectContaining({ atRegistry: false })]);
    // The local driver's SOA: DNSKEY and negative answers live 3600 s.
    const seconds = Math.floor(Date.now() / 1000);
    expect(state.dueAt).toBeGreaterThanOrEqual(seconds + 3599);
    expect(state.dueAt).toBeLessThanOrEqual(seconds + 3600);
    expect(await registry().listSecDns(t.id)).toEqual([]);
    // Before the TTL nothing moves, a minute short of it either.
    await steps();
    await t.ctx.store
      .updateTable('dns_zone')
      .set({ dnssec_due_at: Math.floor(Date.now() / 1000) + 60 })
      .where('item_id', '=', t.id)
      .execute();
    await steps();
    expect((await t.get('dnssec/')).body.data.state).toBe('publishing');
    expect(await registry().listSecDns(t.id)).toEqual([]);
  });

  it('once the DNSKEY TTL has passed, places at the registry the DS computed from its DNSKEY, managed', async () => {
    await pastDue();
    await steps();
    const state = (await t.get('dnssec/')).body.data;
    expect(state.state).toBe('on');
    expect(state.dueAt).toBeNull();
    expect(state.keys).toHaveLength(1);
    const [flags, , algorithm, publicKey] = state.keys[0].dnskey.split(' ');
    expect(Buffer.from(publicKey, 'base64')).toHaveLength(64);
    const computed = dsOf('zona.es', Number(flags), Number(algorithm), publicKey);
    expect(state.ds).toEqual([{ ...computed, atRegistry: true }]);
    const held = await registry().listSecDns(t.id);
    expect(held).toMatchObject([{ type: 'digest', keyTag: computed.keyTag, algorithm: 13, digestType: 2, digest: computed.digest }]);
    expect(await domainDs()).toMatchObject([{ keytag: computed.keyTag, managed: true }]);
  });

  it('refuses to delete a managed DS by hand, naming how to withdraw it', async () => {
    const [ds] = await domainDs();
    const reply = await t.ctx.app.inject({ method: 'GET', url: `/p247/domain/${t.id}/dnssec/${ds.id}/delete/`, headers: t.w });
    expect(reply.statusCode).toBe(409);
    expect(reply.json().system.errors[0]).toMatch(/desactiva DNSSEC/);
    expect(await registry().listSecDns(t.id)).toHaveLength(1);
  });

  it('switching on again changes nothing: the same key, one DS', async () => {
    const before = (await t.get('dnssec/')).body.data.keys;
    await t.post('dnssec/', { enabled: 1 });
    await drain();
    expect((await t.get('dnssec/')).body.data.keys).toEqual(before);
    expect(await registry().listSecDns(t.id)).toHaveLength(1);
  });

  it('rolls the key by double DS, one step per TTL: new DS beside the old, then the key switch, then the old DS gone', async () => {
    const step = async () => {
      await t.ctx.app.runtime.scheduler.runNow('dnssec-steps');
      await drain();
      return (await t.get('dnssec/')).body.data;
    };
    const [old] = (await t.get('dnssec/')).body.data.keys;
    const started = await t.post('dnssec/roll/', {});
    expect(started.status).toBe(200);
    expect(started.body.data.state).toBe('roll-adding');
    expect((await t.post('dnssec/roll/', {})).status).toBe(409);
    await drain();
    let state = (await t.get('dnssec/')).body.data;
    expect(state.state).toBe('roll-waiting-ds');
    const fresh = state.keys.find((k: { active: boolean }) => !k.active);
    expect(state.keys.find((k: { active: boolean }) => k.active)).toEqual(old);
    expect((await registry().listSecDns(t.id)).map((d) => d.keyTag).sort()).toEqual([old.keyTag, fresh.keyTag].sort());
    expect((await domainDs()).every((d: { managed: boolean }) => d.managed)).toBe(true);
    // Before the DS's TTL nothing moves.
    expect((await step()).state).toBe('roll-waiting-ds');
    await pastDue();
    state = await step();
    expect(state.state).toBe('roll-waiting-key');
    expect(state.keys).toEqual([{ ...fresh, active: true }]);
    expect(await registry().listSecDns(t.id)).toHaveLength(2);
    await pastDue();
    state = await step();
    expect(state.state).toBe('on');
    expect((await registry().listSecDns(t.id)).map((d) => d.keyTag)).toEqual([fresh.keyTag]);
    expect(state.ds).toEqual([expect.objectContaining({ keyTag: fresh.keyTag, atRegistry: true })]);
  });

  it('asks to confirm moving the name servers away while the DS is published, and allows its own servers', async () => {
    const url = `/p247/domain/${t.id}/dnsedit/`;
    const body = { 'default-ns': '0', dns: ['ns1.elsewhere.net', 'ns2.elsewhere.net'] };
    const refused = await t.ctx.app.inject({ method: 'POST', url, headers: t.w, payload: body });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().system.inputs).toEqual(['confirm']);
    expect(refused.json().system.errors[0]).toMatch(/ns1\.elsewhere\.net, ns2\.elsewhere\.net no tienen sus claves/);
    expect((await registry().info(t.id))!.nameServers).not.toContain('ns1.elsewhere.net');
    const own = await t.ctx.app.inject({ method: 'POST', url, headers: t.w, payload: { 'default-ns': '1' } });
    expect(own.statusCode).toBe(200);
    const confirmed = await t.ctx.app.inject({ method: 'POST', url, headers: t.w, payload: { ...body, confirm: '1' } });
    expect(confirmed.statusCode).toBe(200);
    // Registry changes go through the outbox: applied once it is drained.
    await t.ctx.app.runtime.outbox.drain();
    expect((await registry().info(t.id))!.nameServers).toContain('ns1.elsewhere.net');
    expect((await t.ctx.app.inject({ method: 'POST', url, headers: t.w, payload: { 'default-ns': '1' } })).statusCode).toBe(200);
  });

  it('asks to confirm unsigning while a DS the panel does not manage is at the registry', async () => {
    const extra = await registry().addSecDns(t.id, {
      type: 'digest',
      keyTag: 1,
      algorithm: 13,
      digestType: 2,
      digest: 'AB'.repeat(32),
      flags: null,
      protocol: null,
    });
    const refused = await t.post('dnssec/', { enabled: 0 });
    expect(refused.status).toBe(409);
    expect(refused.body.system.errors[0]).toMatch(/1 DS de zona\.es que el panel no gestiona/);
    expect((await t.get('dnssec/')).body.data.state).toBe('on');
    await registry().removeSecDns(t.id, extra);
  });

  it('turning off withdraws the DS first and unsigns only once its TTL has passed', async () => {
    const reply = await t.post('dnssec/', { enabled: 0 });
    expect(reply.status).toBe(200);
    expect(reply.body.data.state).toBe('withdrawing');
    await drain();
    expect(await registry().listSecDns(t.id)).toEqual([]);
    let state = (await t.get('dnssec/')).body.data;
    expect(state.state).toBe('waiting');
    expect(state.dueAt).toBeGreaterThan(Date.now() / 1000 + 3500);
    // Before the TTL: still signed.
    await t.ctx.app.runtime.scheduler.runNow('dnssec-steps');
    await drain();
    expect((await t.get('dnssec/')).body.data.keys).toHaveLength(1);
    // The clock past the TTL.
    await dnssecStepNow(t);
    state = (await t.get('dnssec/')).body.data;
    expect(state).toMatchObject({ state: 'off', keys: [], ds: [] });
  });

  it('switched off with the DS about to be placed, places none: the queued step finds the zone on its way off', async () => {
    const acc = await createAccount(t.ctx.store, {
      users: { o: 'all=write' },
      items: [{ reference: 'espera.es', domain: true, service: 'normal' }],
    });
    await registerDomains(t.ctx.app, acc);
    const id = acc.items['espera.es'];
    const o = await acc.as('o');
    const call = (method: 'GET' | 'POST', body?: Record<string, number>) => send(t.ctx.app, method, `/service/${id}/dns/dnssec/`, o, body);
    await send(t.ctx.app, 'GET', `/service/${id}/dns/list/`, o);
    await drain();
    await call('POST', { enabled: 1 });
    await drain();
    expect((await call('GET')).body.data.state).toBe('publishing');
    await t.ctx.store
      .updateTable('dns_zone')
      .set({ dnssec_due_at: Math.floor(Date.now() / 1000) - 1 })
      .where('item_id', '=', id)
      .execute();
    // The schedule queues the placing step; the switch goes off before that job runs.
    await t.ctx.app.runtime.scheduler.runNow('dnssec-steps');
    expect((await call('GET')).body.data.state).toBe('placing');
    expect((await call('POST', { enabled: 0 })).status).toBe(200);
    // One job at a time: the placing step first, which must leave the registry alone.
    expect((await t.ctx.app.runtime.outbox.runOne())?.kind).toBe('dns.dnssec.place');
    expect(await registry().listSecDns(id)).toEqual([]);
    await drain();
    expect((await call('GET')).body.data.state).toBe('waiting');
    expect(await registry().listSecDns(id)).toEqual([]);
    expect(await t.ctx.store.selectFrom('dns_managed_ds').selectAll().where('item_id', '=', id).execute()).toEqual([]);
  });

  it('signs a zone whose domain is registered elsewhere with no wait: there is no DS for the panel to place', async () => {
    const acc = await createAccount(t.ctx.store, { users: { o: 'all=write' }, items: [{ reference: 'fuera.es', service: 'normal' }] });
    const id = acc.items['fuera.es'];
    const o = await acc.as('o');
    await send(t.ctx.app, 'GET', `/service/${id}/dns/list/`, o);
    await drain();
    expect((await send(t.ctx.app, 'POST', `/service/${id}/dns/dnssec/`, o, { enabled: 1 })).status).toBe(200);
    await drain();
    const state = (await send(t.ctx.app, 'GET', `/service/${id}/dns/dnssec/`, o)).body.data;
    expect(state).toMatchObject({ state: 'on', registrar: false, dueAt: null });
    expect(state.keys).toHaveLength(1);
  });

  it('lets a reader see the state but not switch, hides the zone from another realm, and honours a token’s scope', async () => {
    expect((await t.get('dnssec/', t.r)).status).toBe(200);
    expect((await t.post('dnssec/', { enabled: 1 }, t.r)).status).toBe(403);
    expect((await t.get('check/', t.r)).status).not.toBe(403);
    const stranger = await createAccount(t.ctx.store, {
      users: { eve: 'all=write' },
      items: [{ reference: 'eve.es', domain: true, service: 'normal' }],
    });
    await registerDomains(t.ctx.app, stranger);
    const eve = await stranger.as('eve');
    expect((await t.get('dnssec/', eve)).status).toBe(404);
    expect((await t.post('dnssec/', { enabled: 1 }, eve)).status).toBe(404);
    expect((await t.get('check/', eve)).status).toBe(404);
    expect((await t.get('dnssec/')).body.data.state).toBe('off');
  });

  it('lets an API token switch only with write on the zone in its scope', async () => {
    const acc = await createAccount(t.ctx.store, {
      users: { bot: 'all=write' },
      items: [{ reference: 'bot.es', domain: true, service: 'normal' }],
    });
    await registerDomains(t.ctx.app, acc);
    const id = acc.items['bot.es'];
    const bearer = async (text: string) => {
      const parsed = parseLevels(text);
      if (!('map' in parsed)) throw new Error(text);
      const spec = { name: 'script', scope: parsed.map, items: null, cidrs: [], expiresAt: null };
      return { authorization: `Bearer ${(await createToken(t.ctx.store, acc.users.bot, spec)).token}` };
    };
    const reader = await bearer('service_dnszone=read');
    expect((await send(t.ctx.app, 'GET', `/service/${id}/dns/dnssec/`, reader)).status).toBe(200);
    expect((await send(t.ctx.app, 'POST', `/service/${id}/dns/dnssec/`, reader, { enabled: 1 })).status).toBe(403);
    const other = await bearer('domain_dns=write');
    expect((await send(t.ctx.app, 'POST', `/service/${id}/dns/dnssec/`, other, { enabled: 1 })).status).toBe(404);
    const writer = await bearer('service_dnszone=write');
    const reply = await send(t.ctx.app, 'POST', `/service/${id}/dns/dnssec/`, writer, { enabled: 1 });
    expect(reply.status).toBe(200);
    expect(reply.body.data.state).toBe('signing');
  });
});
