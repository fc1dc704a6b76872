import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { TestRegistry } from '../src/server.ts';
import {
  code,
  createDomain,
  createHost,
  D,
  EPP_OPEN,
  EppTestClient,
  infoDomain,
  OTHER_PASSWORD,
  PASSWORD,
  reason,
  registryFor,
  seeded,
  testCertificates,
  updateDomain,
} from './harness.ts';

const certs = testCertificates();
let registry: TestRegistry;
let client: EppTestClient;
const NS2 = ['ns1.dns.example', 'ns2.dns.example'];
const swapNs = (name: string) =>
  updateDomain(
    name,
    '<domain:add><domain:ns><domain:hostObj>ns3.dns.example</domain:hostObj></domain:ns></domain:add><domain:rem><domain:ns><domain:hostObj>ns2.dns.example</domain:hostObj></domain:ns></domain:rem>',
  );
const check = `<check><domain:check ${D}><domain:name>a.test</domain:name></domain:check></check>`;

beforeAll(async () => {
  registry = await registryFor(certs);
  client = await seeded(registry, certs);
  await client.command(createHost('ns3.dns.example'));
});
afterEach(() => registry.clearFaults());
afterAll(async () => {
  client.close();
  await registry.close();
});

async function loggedIn(clID = 'registrar-a', pw = PASSWORD) {
  const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
  expect(code(await fresh.login(clID, pw))).toBe(1000);
  return fresh;
}

describe('faults on demand', () => {
  it('drops the connection before a command, which is then not applied', async () => {
    await client.command(createDomain('drop-before.test', NS2));
    const fresh = await loggedIn();
    registry.setFaults({ drop: { when: 'before', commands: ['domain:update'] } });
    expect(await fresh.command(swapNs('drop-before.test'))).toBeNull();
    expect(registry.state.data.domains['drop-before.test'].hostObjs).toEqual(NS2);
  });

  it('drops the connection in the middle of the response, after the command was applied', async () => {
    await client.command(createDomain('drop-mid.test', NS2));
    const fresh = await loggedIn();
    registry.setFaults({ drop: { when: 'mid-response', commands: ['domain:update'] } });
    expect(await fresh.command(swapNs('drop-mid.test'))).toBeNull();
    expect(registry.state.data.domains['drop-mid.test'].hostObjs).toEqual(['ns1.dns.example', 'ns3.dns.example']);
  });

  it('answers 2400 to the next command (a hello is not one) and keeps the session', async () => {
    registry.setFaults({ answer: { code: 2400 } });
    expect(await client.send(`${EPP_OPEN}<hello/></epp>`)).toContain('<greeting>');
    const failed = await client.command(check);
    expect(code(failed)).toBe(2400);
    expect(failed).toContain('<clTRID>');
    expect(code(await client.command(check))).toBe(1000);
  });

  it('answers 2502 to the next two commands and closes each session', async () => {
    registry.setFaults({ answer: { code: 2502, count: 2, commands: ['domain:check'] } });
    for (let i = 0; i < 2; i++) {
      const fresh = await loggedIn();
      expect(code(await fresh.command(check))).toBe(2502);
      expect(await fresh.next()).toBeNull();
    }
    const third = await loggedIn();
    expect(code(await third.command(check))).toBe(1000);
    third.close();
  });

  it('delays its answers', async () => {
    registry.setFaults({ delayMs: 300 });
    const started = Date.now();
    expect(code(await client.command(check))).toBe(1000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  it('allows only N sessions per client: a login beyond gets 2502 and is closed', async () => {
    registry.setFaults({ maxSessions: 2 });
    const second = await loggedIn();
    const third = await EppTestClient.open(registry.port, certs.client, certs.ca);
    const refused = await third.login();
    expect(code(refused)).toBe(2502);
    expect(await third.next()).toBeNull();
    expect(code(await (await loggedIn('registrar-b', OTHER_PASSWORD)).command(check))).toBe(1000);
    second.close();
  });

  it('refuses commands over the rate limit with 2502 and closes the session (mode refuse)', async () => {
    const fresh = await loggedIn();
    registry.setFaults({ rateLimit: { commands: 2, perMs: 60_000, mode: 'refuse' } });
    expect(code(await fresh.command(check))).toBe(1000);
    expect(code(await fresh.command(check))).toBe(1000);
    const third = await fresh.command(check);
    expect(code(third)).toBe(2502);
    expect(reason(third)).toBe('command rate limit exceeded');
    expect(await fresh.next()).toBeNull();
  });

  it('holds commands over the rate limit until they fit (mode queue), failing none', async () => {
    const fresh = await loggedIn();
    registry.setFaults({ rateLimit: { commands: 2, perMs: 400, mode: 'queue' } });
    const started = Date.now();
    const codes = [];
    for (let i = 0; i < 3; i++) codes.push(code(await fresh.command(check)));
    expect(codes).toEqual([1000, 1000, 1000]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(390);
    fresh.close();
  });

  it('answers 1001 for a chosen command, shows it pending, and completes it with a poll message', async () => {
    await client.command(createDomain('pending.test', NS2));
    registry.setFaults({ pending: ['domain:update'] });
    expect(code(await client.command(swapNs('pending.test')))).toBe(1001);
    const during = await client.command(infoDomain('pending.test'));
    expect(during).toContain('<domain:status s="pendingUpdate"/>');
    expect(during).toContain('<domain:hostObj>ns2.dns.example</domain:hostObj>');
    expect(registry.completePending(true)?.key).toBe('domain:update');
    const after = await client.command(infoDomain('pending.test'));
    expect(after).not.toContain('pendingUpdate');
    expect(after).toContain('<domain:hostObj>ns3.dns.example</domain:hostObj>');
    const message = await client.command('<poll op="req"/>');
    expect(code(message)).toBe(1301);
    expect(message).toContain('<domain:name paResult="1">pending.test</domain:name>');
    await client.command(`<poll op="ack" msgID="${/id="([^"]+)"/.exec(message ?? '')?.[1]}"/>`);
  });

  it('refuses a pending command when told to, leaving the object as it was', async () => {
    await client.command(createDomain('refused.test', NS2));
    registry.setFaults({ pending: ['domain:update'] });
    expect(code(await client.command(swapNs('refused.test')))).toBe(1001);
    registry.completePending(false);
    expect(registry.state.data.domains['refused.test'].hostObjs).toEqual(NS2);
    const message = await client.command('<poll op="req"/>');
    expect(message).toContain('<domain:name paResult="0">refused.test</domain:name>');
    await client.command(`<poll op="ack" msgID="${/id="([^"]+)"/.exec(message ?? '')?.[1]}"/>`);
  });

  it('holds a named command unanswered while reads answer at once, until the test releases it', async () => {
    await client.command(createDomain('held.test', NS2));
    const writer = await loggedIn();
    registry.setFaults({ hold: ['domain:update'] });
    let answered = false;
    const update = writer.command(swapNs('held.test')).then((answer) => {
      answered = true;
      return answer;
    });
    await expect.poll(() => registry.heldCount()).toBe(1);
    expect(await client.command(infoDomain('held.test'))).toContain('<domain:hostObj>ns2.dns.example</domain:hostObj>');
    expect(answered).toBe(false);
    expect(registry.releaseHeld()).toBe(1);
    expect(code(await update)).toBe(1000);
    expect(registry.state.data.domains['held.test'].hostObjs).toEqual(['ns1.dns.example', 'ns3.dns.example']);
    writer.close();
  });

  it('takes the name of a pending create at once, and frees it when the create is refused', async () => {
    registry.setFaults({ pending: ['domain:create'] });
    expect(code(await client.command(createDomain('pending-create.test', NS2)))).toBe(1001);
    expect(await client.command(infoDomain('pending-create.test'))).toContain('<domain:status s="pendingCreate"/>');
    registry.completePending(false);
    expect(code(await client.command(infoDomain('pending-create.test')))).toBe(2303);
    const message = await client.command('<poll op="req"/>');
    expect(message).toContain('<domain:name paResult="0">pending-create.test</domain:name>');
    await client.command(`<poll op="ack" msgID="${/id="([^"]+)"/.exec(message ?? '')?.[1]}"/>`);
  });
});

describe('the control interface', () => {
  const control = (method: string, path: string, body?: unknown) =>
    fetch(`http://127.0.0.1:${registry.controlPort}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });

  it('sets faults over HTTP and refuses a plan it does not know', async () => {
    expect((await control('POST', '/faults', { answer: { code: 2400 } })).status).toBe(200);
    expect(code(await client.command(check))).toBe(2400);
    const bad = await control('POST', '/faults', { explode: true });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      error: "unknown fault 'explode' (known: drop, answer, delayMs, maxSessions, rateLimit, pending, hold)",
    });
    expect((await control('DELETE', '/faults')).status).toBe(200);
    expect(registry.faults).toEqual({});
  });

  it('holds a command over HTTP, counts it and releases it', async () => {
    await client.command(createDomain('http-held.test', NS2));
    expect((await control('POST', '/faults', { hold: 'domain:update' })).status).toBe(400);
    expect((await control('POST', '/faults', { hold: ['domain:update'] })).status).toBe(200);
    const update = client.command(swapNs('http-held.test'));
    await expect.poll(async () => (await (await control('GET', '/held')).json()).held).toBe(1);
    expect(await (await control('POST', '/held/release')).json()).toEqual({ released: 1 });
    expect(code(await update)).toBe(1000);
    expect(await (await control('GET', '/held')).json()).toEqual({ held: 0 });
  });

  it('completes pending actions and queues messages over HTTP', async () => {
    await client.command(createDomain('http-pending.test', NS2));
    await control('POST', '/faults', { pending: ['domain:update'] });
    expect(code(await client.command(swapNs('http-pending.test')))).toBe(1001);
    expect(await (await control('GET', '/pending')).json()).toMatchObject([{ key: 'domain:update', clID: 'registrar-a' }]);
    expect((await control('POST', '/pending/complete', { approve: true })).status).toBe(200);
    expect(registry.state.data.domains['http-pending.test'].hostObjs).toContain('ns3.dns.example');
    expect((await control('POST', '/pending/complete', {})).status).toBe(404);
    const ack = async () => {
      const message = await client.command('<poll op="req"/>');
      await client.command(`<poll op="ack" msgID="${/id="([^"]+)"/.exec(message ?? '')?.[1]}"/>`);
      return message;
    };
    expect(await ack()).toContain('paResult="1"');
    expect((await control('POST', '/messages', { clID: 'registrar-a', msg: 'Registry maintenance at 02:00.' })).status).toBe(200);
    expect(await ack()).toContain('<msg>Registry maintenance at 02:00.</msg>');
  });

  it('sets server statuses over HTTP, which then refuse the client (2304)', async () => {
    await client.command(createDomain('server-lock.test', NS2));
    expect(
      (await control('POST', '/server-status', { object: 'domain', name: 'server-lock.test', add: ['serverUpdateProhibited'] })).status,
    ).toBe(200);
    expect(code(await client.command(swapNs('server-lock.test')))).toBe(2304);
    expect(
      (await control('POST', '/server-status', { object: 'domain', name: 'server-lock.test', rem: ['serverUpdateProhibited'] })).status,
    ).toBe(200);
    expect(code(await client.command(swapNs('server-lock.test')))).toBe(1000);
    expect((await control('POST', '/server-status', { object: 'domain', name: 'nowhere.test', add: ['serverHold'] })).status).toBe(404);
  });

  it('shows sessions and state, and resets the state (the last test here: it empties the registry)', async () => {
    expect(await (await control('GET', '/sessions')).json()).toMatchObject({ loggedIn: expect.any(Number) });
    expect((await (await control('GET', '/state')).json()).domains['server-lock.test'].clID).toBe('registrar-a');
    expect((await control('POST', '/reset')).status).toBe(200);
    expect(code(await client.command(infoDomain('server-lock.test')))).toBe(2303);
    expect((await control('GET', '/nothing')).status).toBe(404);
  });
});
