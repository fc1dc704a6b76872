import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRegistry } from '../src/server.ts';
import {
  code,
  createDomain,
  D,
  type EppTestClient,
  infoDomain,
  NS,
  registryFor,
  seeded,
  testCertificates,
  updateDomain,
} from './harness.ts';

const certs = testCertificates();
const DAY = 86_400_000;
let registry: TestRegistry;
let a: EppTestClient;
const control = (method: string, path: string, body?: unknown) =>
  fetch(`http://127.0.0.1:${registry.controlPort}${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });

beforeAll(async () => {
  registry = await registryFor(certs);
  a = await seeded(registry, certs);
});
afterAll(async () => {
  a.close();
  await registry.close();
});

const rgpStatus = (frame: string | null) => /<rgp:rgpStatus s="([^"]+)"/.exec(frame ?? '')?.[1];
const exDateOf = (name: string) => registry.state.data.domains[name].exDate;
const renew = (name: string, date: string) =>
  `<renew><domain:renew ${D}><domain:name>${name}</domain:name><domain:curExpDate>${date}</domain:curExpDate><domain:period unit="y">1</domain:period></domain:renew></renew>`;
const restore = (op: string, report = '') =>
  `<rgp:update xmlns:rgp="${NS.rgp}"><rgp:restore op="${op}">${report}</rgp:restore></rgp:update>`;
const REPORT =
  '<rgp:report><rgp:preData>before</rgp:preData><rgp:postData>after</rgp:postData><rgp:delTime>2026-11-27T10:00:00.0Z</rgp:delTime>' +
  '<rgp:resTime>2026-11-27T11:00:00.0Z</rgp:resTime><rgp:resReason>mistake</rgp:resReason><rgp:statement>true</rgp:statement></rgp:report>';

/** Moves the clock through the control interface, as a test of another process would. */
async function advance(days: number) {
  const answer = await control('POST', '/clock', { days });
  expect(answer.status).toBe(200);
}

describe("the registry's clock and a domain's life", () => {
  it('moves the clock forward through the control interface and refuses to move it back', async () => {
    const before = Date.parse(((await (await control('GET', '/clock')).json()) as { now: string }).now);
    await advance(2);
    const after = Date.parse(((await (await control('GET', '/clock')).json()) as { now: string }).now);
    expect(after - before).toBeGreaterThanOrEqual(2 * DAY);
    expect(after - before).toBeLessThan(2 * DAY + 60_000);
    expect((await control('POST', '/clock', { days: -1 })).status).toBe(400);
  });

  it('keeps an expired domain renewable for 45 days, then deletes it into a 30-day redemption, then 5 days of pending delete, then frees it', async () => {
    await a.command(createDomain('lapse.test'));
    const expiry = Date.parse(exDateOf('lapse.test'));
    await advance((expiry - registry.now().getTime()) / DAY + 1);
    expect(rgpStatus(await a.command(infoDomain('lapse.test')))).toBe('autoRenewPeriod');
    await advance(44);
    const inRedemption = await a.command(infoDomain('lapse.test'));
    expect(rgpStatus(inRedemption)).toBe('redemptionPeriod');
    expect(inRedemption).toContain('<domain:status s="pendingDelete"/>');
    expect(registry.state.data.domains['lapse.test'].deletedAt).toBe(new Date(expiry + 45 * DAY).toISOString());
    await advance(30);
    expect(rgpStatus(await a.command(infoDomain('lapse.test')))).toBe('pendingDelete');
    expect(code(await a.command(updateDomain('lapse.test', '<domain:chg/>'), restore('request')))).toBe(2304);
    await advance(5);
    expect(code(await a.command(infoDomain('lapse.test')))).toBe(2303);
  });

  it('renews a domain in its grace period from the old expiry date, which ends the grace', async () => {
    await a.command(createDomain('late.test'));
    const old = exDateOf('late.test');
    await advance((Date.parse(old) - registry.now().getTime()) / DAY + 10);
    expect(code(await a.command(renew('late.test', old.slice(0, 10))))).toBe(1000);
    expect(exDateOf('late.test').slice(0, 4)).toBe(String(Number(old.slice(0, 4)) + 1));
    expect(rgpStatus(await a.command(infoDomain('late.test')))).toBeUndefined();
  });

  it('restores a domain the registry deleted at the end of its grace, renewed until it is current again', async () => {
    await a.command(createDomain('back.test'));
    const old = exDateOf('back.test');
    await advance((Date.parse(old) - registry.now().getTime()) / DAY + 50);
    expect(code(await a.command(updateDomain('back.test', '<domain:chg/>'), restore('request')))).toBe(1000);
    expect(code(await a.command(updateDomain('back.test', '<domain:chg/>'), restore('report', REPORT)))).toBe(1000);
    expect(Date.parse(exDateOf('back.test'))).toBeGreaterThan(registry.now().getTime());
    expect(exDateOf('back.test').slice(0, 4)).toBe(String(Number(old.slice(0, 4)) + 1));
    const info = await a.command(infoDomain('back.test'));
    expect(rgpStatus(info)).toBeUndefined();
    expect(info).not.toContain('pendingDelete');
  });
});

describe('the second registrar account', () => {
  it('requests a transfer through the control interface, refused with a wrong code, and it is approved by the server after 5 days', async () => {
    await a.command(createDomain('leave.test'));
    const exDate = exDateOf('leave.test');
    const wrong = await control('POST', '/transfer', { clID: 'registrar-b', name: 'leave.test', authInfo: 'nope' });
    expect(await wrong.json()).toMatchObject({ code: 2202 });
    const asked = await control('POST', '/transfer', { clID: 'registrar-b', name: 'leave.test', authInfo: '2fooBAR' });
    expect(await asked.json()).toEqual({ code: 1001 });
    const notice = await a.command('<poll op="req"/>');
    expect(notice).toContain('<domain:reID>registrar-b</domain:reID>');
    const acDate = /<domain:acDate>([^<]+)<\/domain:acDate>/.exec(notice ?? '')?.[1] ?? '';
    // EPP dates carry no milliseconds.
    expect(Date.parse(registry.state.data.domains['leave.test'].transfer?.reDate ?? '') + 5 * DAY - Date.parse(acDate)).toBeLessThan(1000);
    await a.command(`<poll op="ack" msgID="${/id="([^"]+)"/.exec(notice ?? '')?.[1]}"/>`);
    await advance(4.9);
    expect(registry.state.data.domains['leave.test'].clID).toBe('registrar-a');
    await advance(0.2);
    expect(registry.state.data.domains['leave.test'].clID).toBe('registrar-b');
    expect(registry.state.data.domains['leave.test'].transfer?.status).toBe('serverApproved');
    expect(exDateOf('leave.test').slice(0, 4)).toBe(String(Number(exDate.slice(0, 4)) + 1));
    expect(await a.command('<poll op="req"/>')).toContain('<domain:trStatus>serverApproved</domain:trStatus>');
  });

  it('answers a transfer for a client the registry does not know with 2200', async () => {
    expect(await (await control('POST', '/transfer', { clID: 'registrar-z', name: 'leave.test', op: 'query' })).json()).toMatchObject({
      code: 2200,
    });
  });
});
