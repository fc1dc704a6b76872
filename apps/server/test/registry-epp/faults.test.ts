import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CONTACT_TYPES, type ContactType } from '@atalaya/contract';
import { afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { EppFailure } from '../../src/drivers/registry/epp/errors.ts';
import { type ContactData, RegistryError, type SecDnsData } from '../../src/drivers/registry/interface.ts';
import { traceRegistry } from '../../src/drivers/registry/trace.ts';
import { ApiError } from '../../src/http/errors.ts';
import { viaRegistry } from '../../src/modules/domain/refusals.ts';
import { impostorAuthority } from '../sites/certs.ts';
import { describeStores } from '../stores.ts';
import { type Certs, CLIENT_ID, certificateFiles, type DriverTest, openDriverTest, SAMPLE_CONTACT } from './harness.ts';

const contact = SAMPLE_CONTACT;
const NS = ['ns1.provider.example', 'ns2.provider.example'];
const DS: SecDnsData = { type: 'digest', keyTag: 4242, algorithm: 13, digestType: 2, digest: 'AB'.repeat(32), flags: null, protocol: null };

let certs: Certs;
beforeAll(() => {
  certs = certificateFiles();
});

describeStores('the epp registry driver when the registry or the network misbehaves (%s)', (kind) => {
  let t: DriverTest;
  let id: number;
  const open = async (options: Record<string, unknown> = {}, rateWindowMs?: number) => {
    t = await openDriverTest(kind, certs, ['example.es'], options, {}, rateWindowMs);
    id = t.items['example.es'];
    await t.driver.create(id, {
      mode: 'setDNS',
      nameServers: NS,
      authKind: 'authcode',
      contacts: Object.fromEntries(CONTACT_TYPES.map((type) => [type, contact])) as Record<ContactType, ContactData>,
    });
  };
  const warnings = () => t.logged.filter((l) => l.level === 'warn').map((l) => l.message);

  beforeEach(async () => open());
  afterEach(async () => t.close());

  it('keeps an idle session open with <hello> before the registry’s idle time-out', async () => {
    await t.close();
    t = await openDriverTest(kind, certs, ['example.es'], { keepAliveSeconds: 1 }, { idleTimeoutMs: 1600 });
    id = t.items['example.es'];
    await t.driver.info(id);
    await new Promise((resolve) => setTimeout(resolve, 3500));
    expect(t.registry.sessionsOf(CLIENT_ID)).toBe(1);
    await t.driver.info(id);
    const frames = t.logged.map((l) => String(l.details.frame ?? ''));
    expect(frames.filter((f) => f.includes('<hello/>')).length).toBeGreaterThanOrEqual(2);
    expect(warnings()).toEqual([]);
  });

  it('serves every command on the sessions the registry allows when it refuses one more (2502 at login)', async () => {
    await t.close();
    t = await openDriverTest(kind, certs, ['example.es'], { sessions: 3 });
    t.registry.setFaults({ maxSessions: 1, delayMs: 50 });
    const itemId = t.items['example.es'];
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.driver.info(itemId)));
    expect(answers.every((a) => a?.name === 'example.es')).toBe(true);
    expect(warnings()).toContain('epp: the registry refused another session');
  });

  it('fails a command, without hanging, when the registry refuses the login', async () => {
    await t.close();
    t = await openDriverTest(kind, certs, ['example.es'], { password: 'wrong-pw-1' });
    const error = await t.driver.info(t.items['example.es']).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EppFailure);
    expect((error as EppFailure).message).toMatch(/^epp: login failed with 2200/);
  });

  it('refuses a registry whose certificate the configured CA did not sign', async () => {
    await t.close();
    const caFile = path.join(mkdtempSync(path.join(tmpdir(), 'epp-impostor-')), 'ca.pem');
    writeFileSync(caFile, impostorAuthority());
    t = await openDriverTest(kind, certs, ['example.es'], { caFile });
    const error = await t.driver.info(t.items['example.es']).catch((e: unknown) => e);
    expect(String(error)).toMatch(/signature|certificate/i);
    expect(t.registry.sessionsOf(CLIENT_ID)).toBe(0);
  });

  it('opens the session again after the socket dropped between commands', async () => {
    t.registry.dropConnections();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await t.driver.info(id))!.nameServers).toEqual(NS);
  });

  it('sends a change again when the connection dropped before the registry applied it, after info showed it had not', async () => {
    t.registry.setFaults({ drop: { when: 'before', commands: ['domain:update'] } });
    const dsId = await t.driver.addSecDns(id, DS);
    expect(await t.driver.listSecDns(id)).toEqual([{ ...DS, id: dsId }]);
    expect(warnings().some((w) => w.includes('connection lost'))).toBe(true);
  });

  it('does not repeat a change whose answer was lost after the registry applied it: info shows it took effect, and it is there once', async () => {
    t.registry.setFaults({ drop: { when: 'mid-response', commands: ['domain:update'] } });
    const { value: dsId, transactions } = await traceRegistry(() => t.driver.addSecDns(id, DS));
    expect(t.registry.state.data.domains['example.es'].secDNS.ds).toHaveLength(1);
    expect(await t.driver.listSecDns(id)).toEqual([{ ...DS, id: dsId }]);
    expect(warnings()).toContain('epp: the answer was lost; info shows the change took effect');
    expect(transactions).toEqual([{ command: 'domain:update', clTRID: '', svTRID: '', result: 1000, pending: false }]);
  });

  it('checks a lost contact change with info too, and a lost name-server change', async () => {
    t.registry.setFaults({ drop: { when: 'mid-response', count: 2, commands: ['contact:update', 'domain:update'] } });
    await t.driver.updateContacts(id, [...CONTACT_TYPES], { ...contact, email: 'nueva@example.es' });
    await t.driver.setNameServers(id, 'setDNS', ['ns3.provider.example', ...NS]);
    const info = (await t.driver.info(id))!;
    expect(info.contacts.tech!.email).toBe('nueva@example.es');
    expect(info.nameServers.sort()).toEqual([...NS, 'ns3.provider.example'].sort());
    expect(warnings().filter((w) => w.includes('answer was lost'))).toHaveLength(2);
  });

  it('logs in again after the registry ended the session with 2502, and the command completes', async () => {
    t.registry.setFaults({ answer: { code: 2502, commands: ['domain:info'] } });
    expect((await t.driver.info(id))!.nameServers).toEqual(NS);
    expect(warnings()).toContain('epp: the registry ended the session');
  });

  it('fails a command the registry could not run (2400) as the operator’s problem, not the customer’s', async () => {
    t.registry.setFaults({ answer: { code: 2400, commands: ['domain:info'] } });
    const error = await t.driver.listSecDns(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EppFailure);
    expect((error as EppFailure).result).toBe(2400);
  });

  it('gives a 2304 the registry’s reason, under the panel’s message, and leaves the domain as it was', async () => {
    t.registry.serverStatus('domain', 'example.es', ['serverUpdateProhibited']);
    const error = await t.driver.setNameServers(id, 'defaultDNS', ['ns3.provider.example', ...NS]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryError);
    expect(error).toMatchObject({ code: 'blocked', result: 2304 });
    expect((error as RegistryError).reason).toMatch(/serverUpdateProhibited/);
    const answer = await viaRegistry(() => t.driver.setNameServers(id, 'defaultDNS', ['ns3.provider.example', ...NS])).catch(
      (e: unknown) => e,
    );
    expect(answer).toBeInstanceOf(ApiError);
    expect(answer).toMatchObject({ status: 409, key: 'domain.registry_prohibited', params: { reason: (error as RegistryError).reason } });
    const info = (await t.driver.info(id))!;
    expect(info.nameServers).toEqual(NS);
    expect(info.dnsMode).toBe('setDNS');
  });

  it('reports a 1001 as pending, with its transaction ids', async () => {
    t.registry.setFaults({ pending: ['domain:update'] });
    const { transactions } = await traceRegistry(() => t.driver.updateStatus(id, { add: ['clientTransferProhibited'] }));
    expect(transactions).toMatchObject([{ command: 'domain:update', result: 1001, pending: true }]);
    expect(transactions[0].svTRID).not.toBe('');
  });

  it('spreads concurrent commands over its sessions, and logs them all out when closed', async () => {
    t.registry.setFaults({ delayMs: 100 });
    await Promise.all([t.driver.listSecDns(id), t.driver.listSecDns(id), t.driver.listSecDns(id)]);
    expect(t.registry.sessionsOf(CLIENT_ID)).toBe(2);
    await t.driver.close!();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(t.registry.sessionsOf(CLIENT_ID)).toBe(0);
    const frames = t.logged.map((l) => String(l.details.frame ?? ''));
    expect(frames.filter((f) => f.includes('<logout/>'))).toHaveLength(2);
  });

  it('keeps to the rate limit: commands over it wait their turn and none fails', async () => {
    await t.close();
    await open({ commandsPerMinute: 3, sessions: 2 }, 1200);
    // The registry refuses (2502 and closes) a fourth command within a second: a driver that did
    // not wait would meet it, and log that the registry ended the session.
    t.registry.clearFaults();
    await new Promise((resolve) => setTimeout(resolve, 1300));
    t.registry.setFaults({ rateLimit: { commands: 3, perMs: 1000, mode: 'refuse' } });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 7 }, () => t.driver.listSecDns(id)));
    expect(answers).toHaveLength(7);
    expect(Date.now() - started).toBeGreaterThanOrEqual(2 * 1200 - 50);
    expect(warnings()).not.toContain('epp: the registry ended the session');
  });
});
