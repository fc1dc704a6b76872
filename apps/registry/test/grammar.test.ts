import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRegistry } from '../src/server.ts';
import { code, createDomain, D, EPP_OPEN, EppTestClient, NS, reason, registryFor, seeded, testCertificates } from './harness.ts';

const certs = testCertificates();
let registry: TestRegistry;
let client: EppTestClient;
beforeAll(async () => {
  registry = await registryFor(certs, { maxFrameBytes: 4096 });
  client = await seeded(registry, certs);
});
afterAll(async () => {
  client.close();
  await registry.close();
});

const create = (inner: string) => `<create><domain:create ${D}>${inner}</domain:create></create>`;
const AUTH = '<domain:authInfo><domain:pw>2fooBAR</domain:pw></domain:authInfo>';

describe('every frame is checked against the EPP grammar', () => {
  it('refuses an object element in the wrong namespace with 2001 naming the namespace', async () => {
    const answer = await client.command(
      '<check><domain:check xmlns:domain="urn:ietf:params:xml:ns:domain-0.9"><domain:name>a.test</domain:name></domain:check></check>',
    );
    expect(code(answer)).toBe(2001);
    expect(reason(answer)).toContain("'urn:ietf:params:xml:ns:domain-0.9'");
    expect(reason(answer)).toContain("expected 'urn:ietf:params:xml:ns:domain-1.0'");
  });

  it('refuses a root element outside the EPP namespace', async () => {
    const answer = await client.send('<epp xmlns="urn:ietf:params:xml:ns:epp-0.4"><hello/></epp>');
    expect(code(answer)).toBe(2001);
    expect(reason(answer)).toContain('<{urn:ietf:params:xml:ns:epp-0.4}epp> is in namespace');
  });

  it('refuses a create without its required authInfo, naming it', async () => {
    const answer = await client.command(create('<domain:name>missing.test</domain:name><domain:registrant>reg-1</domain:registrant>'));
    expect(code(answer)).toBe(2001);
    expect(reason(answer)).toBe('missing <domain:authInfo> in <domain:create>');
    expect(registry.state.data.domains['missing.test']).toBeUndefined();
  });

  it('refuses elements out of order, naming the one found and the one expected', async () => {
    const answer = await client.command(create(`<domain:name>order.test</domain:name>${AUTH}<domain:registrant>reg-1</domain:registrant>`));
    expect(code(answer)).toBe(2001);
    expect(reason(answer)).toBe('unexpected <domain:registrant> in <domain:create> (unknown, repeated or out of order)');
  });

  it('refuses a value of the wrong type (a period that is not a number)', async () => {
    const answer = await client.command(
      create(
        `<domain:name>period.test</domain:name><domain:period unit="y">two</domain:period><domain:registrant>reg-1</domain:registrant>${AUTH}`,
      ),
    );
    expect(code(answer)).toBe(2001);
    expect(reason(answer)).toBe("<domain:period> is 'two', expected an integer from 1 to 99");
  });

  it('refuses an attribute value outside its list and a missing required attribute', async () => {
    const badUnit = await client.command(
      create(
        `<domain:name>unit.test</domain:name><domain:period unit="d">1</domain:period><domain:registrant>reg-1</domain:registrant>${AUTH}`,
      ),
    );
    expect(reason(badUnit)).toBe("attribute 'unit' of <domain:period> is 'd', expected one of y, m");
    const noType = await client.command(
      create(
        `<domain:name>type.test</domain:name><domain:registrant>reg-1</domain:registrant><domain:contact>reg-1</domain:contact>${AUTH}`,
      ),
    );
    expect(code(noType)).toBe(2001);
    expect(reason(noType)).toBe("missing attribute 'type' on <domain:contact>");
  });

  it('refuses a name that is not a host name, and an IP address that is not one', async () => {
    const name = await client.command(
      create(`<domain:name>bad_name!.test</domain:name><domain:registrant>reg-1</domain:registrant>${AUTH}`),
    );
    expect(reason(name)).toContain("<domain:name> is 'bad_name!.test', expected a host name");
    const addr = await client.command(
      `<create><host:create xmlns:host="${NS.host}"><host:name>ns9.x.test</host:name><host:addr>300.1.1.1</host:addr></host:create></create>`,
    );
    expect(reason(addr)).toBe("<host:addr> is '300.1.1.1', expected an IPv4 or IPv6 address");
  });

  it('accepts any prefix the client declares, as XML namespaces mean', async () => {
    const answer = await client.command(`<check><d:check xmlns:d="${NS.domain}"><d:name>free.test</d:name></d:check></check>`);
    expect(code(answer)).toBe(1000);
    expect(answer).toContain('avail="1"');
  });

  it('refuses an extension on a command it does not belong to', async () => {
    const answer = await client.command(
      `<check><domain:check ${D}><domain:name>a.test</domain:name></domain:check></check>`,
      `<secDNS:update xmlns:secDNS="${NS.secDNS}"><secDNS:rem><secDNS:all>true</secDNS:all></secDNS:rem></secDNS:update>`,
    );
    expect(code(answer)).toBe(2001);
    expect(reason(answer)).toBe('<secDNS:update> does not belong to a domain:check command');
  });

  it('refuses XML that is not well-formed, and a DOCTYPE', async () => {
    expect(reason(await client.send(`${EPP_OPEN}<hello></epp>`))).toContain('not well-formed XML');
    const doctype = await client.send(
      '<?xml version="1.0"?><!DOCTYPE epp [<!ENTITY x "y">]><epp xmlns="urn:ietf:params:xml:ns:epp-1.0"><hello/></epp>',
    );
    expect(code(doctype)).toBe(2001);
    expect(reason(doctype)).toBe('a DOCTYPE is not allowed in an EPP frame');
  });

  it('answers 2000 to a command EPP does not have', async () => {
    const answer = await client.command('<frobnicate/>');
    expect(code(answer)).toBe(2000);
  });

  it('echoes clTRID and gives every response its own svTRID', async () => {
    const one = await client.send(
      `${EPP_OPEN}<command><check><domain:check ${D}><domain:name>a.test</domain:name></domain:check></check><clTRID>ABC-123</clTRID></command></epp>`,
    );
    const two = await client.send(
      `${EPP_OPEN}<command><check><domain:check ${D}><domain:name>a.test</domain:name></domain:check></check><clTRID>ABC-124</clTRID></command></epp>`,
    );
    expect(one).toContain('<clTRID>ABC-123</clTRID>');
    expect(two).toContain('<clTRID>ABC-124</clTRID>');
    const svTRID = (frame: string | null) => /<svTRID>([^<]+)<\/svTRID>/.exec(frame ?? '')?.[1];
    expect(svTRID(one)).toBeTruthy();
    expect(svTRID(one)).not.toBe(svTRID(two));
  });

  it('escapes client data it echoes back', async () => {
    const answer = await client.send(
      `${EPP_OPEN}<command><check><domain:check ${D}><domain:name>a.test</domain:name></domain:check></check><clTRID>A&amp;&lt;B</clTRID></command></epp>`,
    );
    expect(answer).toContain('<clTRID>A&amp;&lt;B</clTRID>');
  });

  it('answers hello with a greeting naming its objects and extensions', async () => {
    const greeting = await client.send(`${EPP_OPEN}<hello/></epp>`);
    expect(greeting).toContain('<greeting>');
    for (const uri of [NS.domain, NS.host, NS.contact]) expect(greeting).toContain(`<objURI>${uri}</objURI>`);
    for (const uri of [NS.secDNS, NS.rgp]) expect(greeting).toContain(`<extURI>${uri}</extURI>`);
    expect(greeting).toContain('<dcp>');
  });
});

describe('sessions', () => {
  it('refuses object commands before login with 2002, and a wrong password with 2200', async () => {
    const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
    expect(code(await fresh.command(createDomain('early.test')))).toBe(2002);
    expect(code(await fresh.login('registrar-a', 'wrong-pw1'))).toBe(2200);
    expect(code(await fresh.login())).toBe(1000);
    expect(code(await fresh.login())).toBe(2002);
    fresh.close();
  });

  it('closes the connection at the third failed login (2501)', async () => {
    const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
    expect(code(await fresh.login('registrar-a', 'wrong-pw1'))).toBe(2200);
    expect(code(await fresh.login('registrar-a', 'wrong-pw2'))).toBe(2200);
    expect(code(await fresh.login('registrar-a', 'wrong-pw3'))).toBe(2501);
    expect(await fresh.next()).toBeNull();
  });

  it('refuses a protocol version other than 1.0 (2100)', async () => {
    const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
    const answer = await fresh.command(
      `<login><clID>registrar-a</clID><pw>secret-a1</pw><options><version>2.0</version><lang>en</lang></options><svcs><objURI>${NS.domain}</objURI></svcs></login>`,
    );
    expect(code(answer)).toBe(2100);
    fresh.close();
  });

  it('refuses a login asking for an object service the registry does not offer', async () => {
    const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
    const answer = await fresh.command(
      '<login><clID>registrar-a</clID><pw>secret-a1</pw><options><version>1.0</version><lang>en</lang></options><svcs><objURI>urn:ietf:params:xml:ns:obj-9</objURI></svcs></login>',
    );
    expect(code(answer)).toBe(2307);
    fresh.close();
  });

  it('answers logout with 1500 and closes the connection', async () => {
    const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
    await fresh.login();
    expect(code(await fresh.command('<logout/>'))).toBe(1500);
    expect(await fresh.next()).toBeNull();
  });

  it('reads nothing sent after logout, even a command already on its way', async () => {
    const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
    await fresh.login();
    const frame = (xml: string) => {
      const body = Buffer.from(xml);
      const header = Buffer.alloc(4);
      header.writeUInt32BE(body.length + 4);
      return Buffer.concat([header, body]);
    };
    fresh.sendRaw(
      Buffer.concat([
        frame(`${EPP_OPEN}<command><logout/></command></epp>`),
        frame(`${EPP_OPEN}<command>${createDomain('after-logout.test')}</command></epp>`),
      ]),
    );
    expect(code(await fresh.next())).toBe(1500);
    expect(await fresh.next()).toBeNull();
    expect(registry.state.data.domains['after-logout.test']).toBeUndefined();
  });

  it('closes a connection that sends a frame over the size limit, saying why', async () => {
    const fresh = await EppTestClient.open(registry.port, certs.client, certs.ca);
    const header = Buffer.alloc(4);
    header.writeUInt32BE(1_000_000);
    fresh.sendRaw(header);
    const answer = await fresh.next();
    expect(code(answer)).toBe(2500);
    expect(reason(answer)).toBe('a frame of 1000000 bytes is outside 5 to 4096');
    expect(await fresh.next()).toBeNull();
  });

  it('closes a session idle past the time-out', async () => {
    const quick = await registryFor(certs, { idleTimeoutMs: 200 });
    const fresh = await EppTestClient.open(quick.port, certs.client, certs.ca);
    await fresh.login();
    expect(await fresh.next()).toBeNull();
    await quick.close();
  });
});
