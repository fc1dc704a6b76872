import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRegistry } from '../src/server.ts';
import {
  C,
  code,
  createContact,
  createDomain,
  createHost,
  D,
  EppTestClient,
  H,
  infoDomain,
  NS,
  OTHER_PASSWORD,
  reason,
  registryFor,
  seeded,
  testCertificates,
  updateDomain,
} from './harness.ts';

const certs = testCertificates();
let registry: TestRegistry;
let a: EppTestClient;
let b: EppTestClient;
const NS2 = ['ns1.dns.example', 'ns2.dns.example'];

beforeAll(async () => {
  registry = await registryFor(certs, { policy: { nsMin: 2, nsMax: 4 } });
  a = await seeded(registry, certs);
  b = await EppTestClient.open(registry.port, certs.client, certs.ca);
  await b.login('registrar-b', OTHER_PASSWORD);
});
afterAll(async () => {
  a.close();
  b.close();
  await registry.close();
});

const status = (verb: 'add' | 'rem', s: string) => `<domain:${verb}><domain:status s="${s}"/></domain:${verb}>`;
const hostObjs = (names: string[]) => `<domain:ns>${names.map((n) => `<domain:hostObj>${n}</domain:hostObj>`).join('')}</domain:ns>`;
const deleteDomain = (name: string) => `<delete><domain:delete ${D}><domain:name>${name}</domain:name></domain:delete></delete>`;
const deleteHost = (name: string) => `<delete><host:delete ${H}><host:name>${name}</host:name></host:delete></delete>`;
const renew = (name: string, date: string) =>
  `<renew><domain:renew ${D}><domain:name>${name}</domain:name><domain:curExpDate>${date}</domain:curExpDate><domain:period unit="y">1</domain:period></domain:renew></renew>`;
const transfer = (op: string, name: string, pw = '2fooBAR') =>
  `<transfer op="${op}"><domain:transfer ${D}><domain:name>${name}</domain:name><domain:authInfo><domain:pw>${pw}</domain:pw></domain:authInfo></domain:transfer></transfer>`;

async function domain(name: string, ns = NS2) {
  const answer = await a.command(createDomain(name, ns));
  expect(code(answer), reason(answer)).toBe(1000);
}

describe('objects and their associations', () => {
  it('refuses a second object with a name that exists (2302) and a command on one that does not (2303)', async () => {
    await domain('twice.test');
    expect(code(await a.command(createDomain('twice.test', NS2)))).toBe(2302);
    expect(code(await a.command(infoDomain('never.test')))).toBe(2303);
    expect(reason(await a.command(createDomain('nohost.test', ['ns9.nowhere.example', 'ns1.dns.example'])))).toBe(
      'host ns9.nowhere.example does not exist',
    );
  });

  it('refuses to delete a host while a domain uses it (2305), and deletes it once unused', async () => {
    await a.command(createHost('ns3.dns.example'));
    await domain('uses-ns3.test', ['ns1.dns.example', 'ns3.dns.example']);
    const refused = await a.command(deleteHost('ns3.dns.example'));
    expect(code(refused)).toBe(2305);
    expect(reason(refused)).toBe('ns3.dns.example is a name server of uses-ns3.test');
    await a.command(
      updateDomain(
        'uses-ns3.test',
        `<domain:add>${hostObjs(['ns2.dns.example'])}</domain:add><domain:rem>${hostObjs(['ns3.dns.example'])}</domain:rem>`,
      ),
    );
    expect(code(await a.command(deleteHost('ns3.dns.example')))).toBe(1000);
  });

  it('refuses to delete a contact linked to a domain (2305)', async () => {
    const answer = await a.command(`<delete><contact:delete ${C}><contact:id>reg-1</contact:id></contact:delete></delete>`);
    expect(code(answer)).toBe(2305);
  });

  it('needs an address for a host under a domain of the registry (2003) and refuses one for an external host (2306)', async () => {
    await domain('glue.test');
    const noGlue = await a.command(createHost('ns1.glue.test'));
    expect(code(noGlue)).toBe(2003);
    expect(reason(noGlue)).toBe('ns1.glue.test is under glue.test, so it needs an address (glue)');
    expect(code(await a.command(createHost('ns1.glue.test', ['192.0.2.1', '2001:db8::1'])))).toBe(1000);
    expect(code(await a.command(createHost('ns.external.example', ['192.0.2.2'])))).toBe(2306);
    // Removing the last address of a subordinate host leaves it without glue.
    const lastAddr = await a.command(
      `<update><host:update ${H}><host:name>ns1.glue.test</host:name><host:rem><host:addr ip="v4">192.0.2.1</host:addr><host:addr ip="v6">2001:db8::1</host:addr></host:rem></host:update></update>`,
    );
    expect(code(lastAddr)).toBe(2003);
    // A domain with a subordinate host cannot be deleted before it.
    expect(code(await a.command(deleteDomain('glue.test')))).toBe(2305);
  });

  it('keeps a subordinate host to its domain sponsor (2201 for another client)', async () => {
    expect(code(await b.command(createHost('ns2.glue.test', ['192.0.2.3'])))).toBe(2201);
  });

  it('holds the name server count to the policy (2 to 4 here, or none)', async () => {
    for (const n of ['ns3.dns.example', 'ns4.dns.example', 'ns5.dns.example']) await a.command(createHost(n));
    const one = await a.command(createDomain('one-ns.test', ['ns1.dns.example']));
    expect(code(one)).toBe(2306);
    expect(reason(one)).toBe('a domain takes 2 to 4 name servers (or none), not 1');
    const five = ['ns1.dns.example', 'ns2.dns.example', 'ns3.dns.example', 'ns4.dns.example', 'ns5.dns.example'];
    expect(code(await a.command(createDomain('five-ns.test', five)))).toBe(2306);
    expect(code(await a.command(createDomain('four-ns.test', five.slice(0, 4))))).toBe(1000);
    expect(code(await a.command(createDomain('no-ns.test', [])))).toBe(1000);
    expect(await a.command(infoDomain('no-ns.test'))).toContain('<domain:status s="inactive"/>');
    const grow = await a.command(updateDomain('four-ns.test', `<domain:add>${hostObjs(['ns5.dns.example'])}</domain:add>`));
    expect(code(grow)).toBe(2306);
  });
});

describe('statuses a client sets', () => {
  it('refuses an update under clientUpdateProhibited (2304) except the one lifting it', async () => {
    await domain('locked.test');
    expect(code(await a.command(updateDomain('locked.test', status('add', 'clientUpdateProhibited'))))).toBe(1000);
    const refused = await a.command(
      updateDomain('locked.test', `<domain:chg><domain:authInfo><domain:pw>newCode1</domain:pw></domain:authInfo></domain:chg>`),
    );
    expect(code(refused)).toBe(2304);
    expect(reason(refused)).toBe('clientUpdateProhibited prohibits update');
    expect(code(await a.command(updateDomain('locked.test', status('rem', 'clientUpdateProhibited'))))).toBe(1000);
    expect(
      code(
        await a.command(
          updateDomain('locked.test', `<domain:chg><domain:authInfo><domain:pw>newCode1</domain:pw></domain:authInfo></domain:chg>`),
        ),
      ),
    ).toBe(1000);
  });

  it('refuses a delete under clientDeleteProhibited and a transfer under clientTransferProhibited (2304)', async () => {
    await domain('nodelete.test');
    await a.command(
      updateDomain(
        'nodelete.test',
        `<domain:add><domain:status s="clientDeleteProhibited"/><domain:status s="clientTransferProhibited"/></domain:add>`,
      ),
    );
    expect(code(await a.command(deleteDomain('nodelete.test')))).toBe(2304);
    expect(code(await b.command(transfer('request', 'nodelete.test')))).toBe(2304);
  });

  it('refuses a status only the registry may set (2306) and a server status blocks the client (2304)', async () => {
    await domain('server.test');
    expect(code(await a.command(updateDomain('server.test', status('add', 'serverHold'))))).toBe(2306);
    registry.serverStatus('domain', 'server.test', ['serverUpdateProhibited']);
    expect(code(await a.command(updateDomain('server.test', status('add', 'clientHold'))))).toBe(2304);
  });
});

describe('renew, authorisation and transfer', () => {
  it('renews only when curExpDate is the current expiry date (2306 otherwise)', async () => {
    await domain('renew.test');
    const exDate = registry.state.data.domains['renew.test'].exDate;
    const wrong = await a.command(renew('renew.test', '2001-01-01'));
    expect(code(wrong)).toBe(2306);
    expect(reason(wrong)).toBe(`curExpDate 2001-01-01 is not the expiry date ${exDate.slice(0, 10)}`);
    const renewed = await a.command(renew('renew.test', exDate.slice(0, 10)));
    expect(code(renewed)).toBe(1000);
    expect(registry.state.data.domains['renew.test'].exDate.slice(0, 4)).toBe(String(Number(exDate.slice(0, 4)) + 1));
  });

  it('shows the auth code to the sponsor or with the right code, refuses a wrong one (2202), and another client may not update (2201)', async () => {
    await domain('auth.test');
    expect(await a.command(infoDomain('auth.test'))).toContain('<domain:pw>2fooBAR</domain:pw>');
    const stranger = await b.command(infoDomain('auth.test'));
    expect(code(stranger)).toBe(1000);
    expect(stranger).not.toContain('<domain:authInfo>');
    expect(stranger).not.toContain('<domain:registrant>');
    expect(code(await b.command(infoDomain('auth.test', 'wrong-code')))).toBe(2202);
    expect(await b.command(infoDomain('auth.test', '2fooBAR'))).toContain('<domain:pw>2fooBAR</domain:pw>');
    expect(code(await b.command(updateDomain('auth.test', status('add', 'clientHold'))))).toBe(2201);
  });

  it('transfers with the auth code: 1001 pending, a poll message to the sponsor, approval moves the domain', async () => {
    await domain('move.test');
    const exDate = registry.state.data.domains['move.test'].exDate;
    expect(code(await b.command(transfer('request', 'move.test', 'badcode')))).toBe(2202);
    const requested = await b.command(transfer('request', 'move.test'));
    expect(code(requested)).toBe(1001);
    expect(requested).toContain('<domain:trStatus>pending</domain:trStatus>');
    const message = await a.command('<poll op="req"/>');
    expect(code(message)).toBe(1301);
    expect(message).toContain('<domain:name>move.test</domain:name>');
    const id = /<msgQ count="\d+" id="([^"]+)"/.exec(message ?? '')?.[1];
    expect(code(await a.command(`<poll op="ack" msgID="${id}"/>`))).toBe(1000);
    expect(code(await a.command(`<poll op="ack" msgID="${id}"/>`))).toBe(2303);
    expect(code(await a.command(transfer('approve', 'move.test')))).toBe(1000);
    expect(registry.state.data.domains['move.test'].clID).toBe('registrar-b');
    expect(registry.state.data.domains['move.test'].exDate.slice(0, 4)).toBe(String(Number(exDate.slice(0, 4)) + 1));
    const toB = await b.command('<poll op="req"/>');
    expect(toB).toContain('<domain:trStatus>clientApproved</domain:trStatus>');
  });

  it('tells the requester of a rejection and the sponsor of a cancel by poll, and lets the losing client query how it ended', async () => {
    await domain('keep.test');
    /** Reads and acknowledges the head of a client's queue. */
    const take = async (client: typeof a) => {
      const message = (await client.command('<poll op="req"/>')) ?? '';
      const id = /<msgQ count="\d+" id="([^"]+)"/.exec(message)?.[1];
      await client.command(`<poll op="ack" msgID="${id}"/>`);
      return message;
    };
    // What earlier tests left in either queue.
    for (const client of [a, b]) while (code(await client.command('<poll op="req"/>')) === 1301) await take(client);
    expect(code(await b.command(transfer('request', 'keep.test')))).toBe(1001);
    expect(registry.state.data.domains['keep.test'].statuses.map((s) => s.s)).toContain('pendingTransfer');
    expect(await take(a)).toContain('<domain:trStatus>pending</domain:trStatus>');
    expect(code(await b.command(transfer('reject', 'keep.test')))).toBe(2201);
    expect(code(await a.command(transfer('reject', 'keep.test')))).toBe(1000);
    expect(await take(b)).toContain('<domain:trStatus>clientRejected</domain:trStatus>');
    expect(registry.state.data.domains['keep.test'].clID).toBe('registrar-a');
    expect(registry.state.data.domains['keep.test'].statuses.map((s) => s.s)).not.toContain('pendingTransfer');

    expect(code(await b.command(transfer('request', 'keep.test')))).toBe(1001);
    await take(a);
    expect(code(await a.command(transfer('cancel', 'keep.test')))).toBe(2201);
    expect(code(await b.command(transfer('cancel', 'keep.test')))).toBe(1000);
    expect(await take(a)).toContain('<domain:trStatus>clientCancelled</domain:trStatus>');

    expect(code(await b.command(transfer('request', 'keep.test')))).toBe(1001);
    await take(a);
    expect(code(await a.command(transfer('approve', 'keep.test')))).toBe(1000);
    // Without the code: as the former sponsor only.
    const ended = await a.command(
      `<transfer op="query"><domain:transfer ${D}><domain:name>keep.test</domain:name></domain:transfer></transfer>`,
    );
    expect(code(ended)).toBe(1000);
    expect(ended).toContain('<domain:trStatus>clientApproved</domain:trStatus>');
  });

  it('answers an empty queue with 1300', async () => {
    const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
    await fresh.login('registrar-b', OTHER_PASSWORD);
    await fresh.command('<poll op="req"/>').then((m) => fresh.command(`<poll op="ack" msgID="${/id="([^"]+)"/.exec(m ?? '')?.[1]}"/>`));
    expect(code(await fresh.command('<poll op="req"/>'))).toBe(1300);
    fresh.close();
  });
});

describe('DNSSEC (secDNS-1.1) and the redemption grace period (rgp-1.0)', () => {
  const ds = (tag: number) =>
    `<secDNS:dsData><secDNS:keyTag>${tag}</secDNS:keyTag><secDNS:alg>13</secDNS:alg><secDNS:digestType>2</secDNS:digestType><secDNS:digest>49fd46e6c4b45c55d4ac49fd46e6c4b45c55d4ac49fd46e6c4b45c55d4ac1234</secDNS:digest></secDNS:dsData>`;
  const key =
    '<secDNS:keyData><secDNS:flags>257</secDNS:flags><secDNS:protocol>3</secDNS:protocol><secDNS:alg>13</secDNS:alg><secDNS:pubKey>AQPJ////4Q==</secDNS:pubKey></secDNS:keyData>';
  const sec = (inner: string) => `<secDNS:update xmlns:secDNS="${NS.secDNS}">${inner}</secDNS:update>`;

  it('adds, removes and removes all DS records, and shows them in info', async () => {
    await domain('signed.test');
    expect(code(await a.command(updateDomain('signed.test', ''), sec(`<secDNS:add>${ds(1)}${ds(2)}</secDNS:add>`)))).toBe(1000);
    expect(code(await a.command(updateDomain('signed.test', ''), sec(`<secDNS:rem>${ds(1)}</secDNS:rem>`)))).toBe(1000);
    const info = await a.command(infoDomain('signed.test'));
    expect(info).toContain('<secDNS:keyTag>2</secDNS:keyTag>');
    expect(info).not.toContain('<secDNS:keyTag>1</secDNS:keyTag>');
    expect(code(await a.command(updateDomain('signed.test', ''), sec(`<secDNS:rem>${ds(7)}</secDNS:rem>`)))).toBe(2306);
    expect(code(await a.command(updateDomain('signed.test', ''), sec(`<secDNS:add>${key}</secDNS:add>`)))).toBe(2306);
    expect(code(await a.command(updateDomain('signed.test', ''), sec('<secDNS:rem><secDNS:all>true</secDNS:all></secDNS:rem>')))).toBe(
      1000,
    );
    expect(await a.command(infoDomain('signed.test'))).not.toContain('secDNS:infData');
    expect(
      code(
        await a.command(
          updateDomain('signed.test', ''),
          sec(`<secDNS:add>${key}</secDNS:add><secDNS:chg><secDNS:maxSigLife>604800</secDNS:maxSigLife></secDNS:chg>`),
        ),
      ),
    ).toBe(1000);
    const keyed = await a.command(infoDomain('signed.test'));
    expect(keyed).toContain('<secDNS:pubKey>AQPJ////4Q==</secDNS:pubKey>');
    expect(keyed).toContain('<secDNS:maxSigLife>604800</secDNS:maxSigLife>');
  });

  it('keeps a deleted domain in its redemption period, and restores it on request and report', async () => {
    await domain('gone.test');
    expect(code(await a.command(deleteDomain('gone.test')))).toBe(1000);
    const info = await a.command(infoDomain('gone.test'));
    expect(info).toContain('<rgp:rgpStatus s="redemptionPeriod"/>');
    expect(info).toContain('<domain:status s="pendingDelete"/>');
    expect(code(await a.command(createDomain('gone.test', NS2)))).toBe(2302);
    const rgp = (op: string, report = '') =>
      `<rgp:update xmlns:rgp="${NS.rgp}"><rgp:restore op="${op}">${report}</rgp:restore></rgp:update>`;
    const report =
      '<rgp:report><rgp:preData>before</rgp:preData><rgp:postData>after</rgp:postData><rgp:delTime>2026-11-27T10:00:00.0Z</rgp:delTime>' +
      '<rgp:resTime>2026-11-27T11:00:00.0Z</rgp:resTime><rgp:resReason>mistake</rgp:resReason><rgp:statement>true</rgp:statement></rgp:report>';
    expect(code(await a.command(updateDomain('gone.test', '<domain:chg/>'), rgp('report', report)))).toBe(2304);
    const requested = await a.command(updateDomain('gone.test', '<domain:chg/>'), rgp('request'));
    expect(code(requested)).toBe(1000);
    expect(requested).toContain('<rgp:rgpStatus s="pendingRestore"/>');
    expect(code(await a.command(updateDomain('gone.test', '<domain:chg/>'), rgp('report', report)))).toBe(1000);
    const restored = await a.command(infoDomain('gone.test'));
    expect(restored).toContain('<domain:status s="ok"/>');
    expect(restored).not.toContain('rgp:infData');
  });

  it('purges a deleted domain once the redemption and pending-delete periods are over', async () => {
    let now = Date.now();
    const clocked = await registryFor(certs, { now: () => new Date(now) });
    const client = await seeded(clocked, certs);
    await client.command(createDomain('purge.test', NS2));
    await client.command(deleteDomain('purge.test'));
    now += 36 * 86_400_000;
    expect(code(await client.command(infoDomain('purge.test')))).toBe(2303);
    client.close();
    await clocked.close();
  });
});

describe('contacts and host attributes', () => {
  it('hides what a contact asked to hide (disclose flag 0) from other clients only', async () => {
    const disclose = '<contact:disclose flag="0"><contact:voice/><contact:email/></contact:disclose>';
    expect(code(await a.command(createContact('private-1', disclose)))).toBe(1000);
    const info = `<info><contact:info ${C}><contact:id>private-1</contact:id></contact:info></info>`;
    const own = await a.command(info);
    expect(own).toContain('<contact:email>ana@example.test</contact:email>');
    expect(own).toContain('<contact:disclose flag="0"><contact:voice/><contact:email/></contact:disclose>');
    const other = await b.command(info);
    expect(other).not.toContain('<contact:email>');
    expect(other).not.toContain('<contact:voice>');
    expect(other).toContain('<contact:name>Ana Pérez</contact:name>');
    const reveal = `<update><contact:update ${C}><contact:id>private-1</contact:id><contact:chg><contact:disclose flag="1"><contact:email/></contact:disclose></contact:chg></contact:update></update>`;
    expect(code(await a.command(reveal))).toBe(1000);
    expect(await b.command(info)).toContain('<contact:email>ana@example.test</contact:email>');
  });

  it('keeps a contact whose id is __proto__ as any other', async () => {
    expect(code(await a.command(createContact('__proto__')))).toBe(1000);
    expect(code(await a.command(createContact('__proto__')))).toBe(2302);
    expect(await a.command(`<info><contact:info ${C}><contact:id>__proto__</contact:id></contact:info></info>`)).toContain(
      '<contact:id>__proto__</contact:id>',
    );
  });

  it('takes name servers as host attributes with glue when its policy says so', async () => {
    const attrs = await registryFor(certs, { policy: { hostModel: 'attributes' } });
    const client = await EppTestClient.open(attrs.port, certs.client, certs.ca);
    await client.login();
    await client.command(createContact('reg-1'));
    const ns =
      '<domain:ns><domain:hostAttr><domain:hostName>ns1.attr.test</domain:hostName><domain:hostAddr ip="v4">192.0.2.10</domain:hostAddr></domain:hostAttr>' +
      '<domain:hostAttr><domain:hostName>ns.other.example</domain:hostName></domain:hostAttr></domain:ns>';
    const create = `<create><domain:create ${D}><domain:name>attr.test</domain:name>${ns}<domain:registrant>reg-1</domain:registrant><domain:authInfo><domain:pw>2fooBAR</domain:pw></domain:authInfo></domain:create></create>`;
    expect(code(await client.command(create))).toBe(1000);
    expect(await client.command(infoDomain('attr.test'))).toContain('<domain:hostAddr ip="v4">192.0.2.10</domain:hostAddr>');
    expect(code(await client.command(createDomain('obj.test', NS2)))).toBe(2306);
    const noGlue = create
      .replace('attr.test</domain:name>', 'attr2.test</domain:name>')
      .replace('ns1.attr.test', 'ns1.attr2.test')
      .replace('<domain:hostAddr ip="v4">192.0.2.10</domain:hostAddr>', '');
    expect(code(await client.command(noGlue))).toBe(2003);
    client.close();
    await attrs.close();
  });
});

describe('more of RFC 5731–5733', () => {
  it('changes the registrant, and refuses to remove it (2308: the data policy keeps one)', async () => {
    await domain('owner.test');
    await a.command(createContact('reg-2'));
    const chg = (id: string) => updateDomain('owner.test', `<domain:chg><domain:registrant>${id}</domain:registrant></domain:chg>`);
    expect(code(await a.command(chg('reg-2')))).toBe(1000);
    expect(registry.state.data.domains['owner.test'].registrant).toBe('reg-2');
    expect(code(await a.command(chg('')))).toBe(2308);
    expect(code(await a.command(chg('nobody-9')))).toBe(2303);
  });

  it('lists name servers and subordinate hosts as the hosts attribute asks', async () => {
    await domain('hosts.test');
    await a.command(createHost('ns1.hosts.test', ['192.0.2.20']));
    const info = (hosts: string) =>
      a.command(`<info><domain:info ${D}><domain:name hosts="${hosts}">hosts.test</domain:name></domain:info></info>`);
    const all = await info('all');
    expect(all).toContain('<domain:hostObj>ns1.dns.example</domain:hostObj>');
    expect(all).toContain('<domain:host>ns1.hosts.test</domain:host>');
    expect(await info('del')).not.toContain('<domain:host>');
    expect(await info('sub')).not.toContain('<domain:ns>');
    const none = await info('none');
    expect(none).not.toContain('<domain:ns>');
    expect(none).not.toContain('<domain:host>');
  });

  it('renames a host and the domains that use it follow', async () => {
    await a.command(createHost('ns-old.dns.example'));
    await domain('rename.test', ['ns1.dns.example', 'ns-old.dns.example']);
    const rename = `<update><host:update ${H}><host:name>ns-old.dns.example</host:name><host:chg><host:name>ns-new.dns.example</host:name></host:chg></host:update></update>`;
    expect(code(await a.command(rename))).toBe(1000);
    expect(await a.command(infoDomain('rename.test'))).toContain('<domain:hostObj>ns-new.dns.example</domain:hostObj>');
    expect(code(await a.command(`<info><host:info ${H}><host:name>ns-old.dns.example</host:name></host:info></info>`))).toBe(2303);
  });

  it('transfers a contact with its auth code', async () => {
    await a.command(createContact('moving-1'));
    const request = `<transfer op="request"><contact:transfer ${C}><contact:id>moving-1</contact:id><contact:authInfo><contact:pw>2fooBAR</contact:pw></contact:authInfo></contact:transfer></transfer>`;
    expect(code(await b.command(request))).toBe(1001);
    const approve = `<transfer op="approve"><contact:transfer ${C}><contact:id>moving-1</contact:id></contact:transfer></transfer>`;
    expect(code(await b.command(approve))).toBe(2201);
    expect(code(await a.command(approve))).toBe(1000);
    expect(registry.state.data.contacts['moving-1'].clID).toBe('registrar-b');
  });
});
