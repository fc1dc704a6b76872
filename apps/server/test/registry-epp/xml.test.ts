import { describe, expect, it } from 'vitest';
import { commandXml, helloXml, loginCommand, logoutCommand } from '../../src/drivers/registry/epp/command.ts';
import { contactCreate, contactDisclose, contactInfo, contactUpdate, readContactInfo } from '../../src/drivers/registry/epp/contact-xml.ts';
import { domainCreate, domainInfo, domainUpdate, readDomainInfo } from '../../src/drivers/registry/epp/domain-xml.ts';
import {
  hostCheck,
  hostCreate,
  hostDelete,
  hostUpdateAddresses,
  readHostCheck,
  readHostInfo,
} from '../../src/drivers/registry/epp/host-xml.ts';
import { redactFrame } from '../../src/drivers/registry/epp/redact.ts';
import { readGreeting, readResponse } from '../../src/drivers/registry/epp/response.ts';
import { readSecDns, secDnsUpdate } from '../../src/drivers/registry/epp/secdns-xml.ts';
import { loginServices } from '../../src/drivers/registry/epp/session.ts';
import type { ContactData } from '../../src/drivers/registry/interface.ts';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?><epp xmlns="urn:ietf:params:xml:ns:epp-1.0">';
const xml = (command: Parameters<typeof commandXml>[0]) => commandXml(command, 'ABC-1');
/** The <command> of a built document, without the envelope. */
const body = (command: Parameters<typeof commandXml>[0]) => {
  const whole = xml(command);
  expect(whole.startsWith(`${HEAD}<command>`)).toBe(true);
  expect(whole.endsWith('<clTRID>ABC-1</clTRID></command></epp>')).toBe(true);
  return whole.slice(HEAD.length + '<command>'.length, -'<clTRID>ABC-1</clTRID></command></epp>'.length);
};

const contact: ContactData = {
  isOrg: true,
  orgName: 'Ejemplo & Hijos, S.L.',
  firstName: 'María José',
  lastName: 'García',
  identNumber: 'B12345678',
  email: 'maria@example.es',
  phone: '+34.971123456',
  address: 'Carrer <de> Sant Miquel, 1',
  postalCode: '07002',
  city: 'Palma',
  cityKey: 'palma',
  state: 'Illes Balears',
  stateKey: 'PM',
  country: 'es',
};

describe('EPP commands as the driver writes them', () => {
  it('log in with the version, the language and the object and extension URIs asked for', () => {
    expect(
      body(loginCommand('registrar1', 'pw-123456', ['urn:ietf:params:xml:ns:domain-1.0'], ['urn:ietf:params:xml:ns:secDNS-1.1'])),
    ).toBe(
      '<login><clID>registrar1</clID><pw>pw-123456</pw><options><version>1.0</version><lang>en</lang></options>' +
        '<svcs><objURI>urn:ietf:params:xml:ns:domain-1.0</objURI><svcExtension><extURI>urn:ietf:params:xml:ns:secDNS-1.1</extURI></svcExtension></svcs></login>',
    );
  });

  it('log in without <svcExtension> when no extension is shared', () => {
    expect(body(loginCommand('registrar1', 'pw-123456', ['urn:ietf:params:xml:ns:host-1.0'], []))).not.toContain('svcExtension');
  });

  it('say hello and log out', () => {
    expect(helloXml()).toBe(`${HEAD}<hello/></epp>`);
    expect(body(logoutCommand())).toBe('<logout/>');
  });

  it('ask domain:info for all hosts, with the auth code only when given', () => {
    expect(body(domainInfo('example.es'))).toBe(
      '<info><domain:info xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name hosts="all">example.es</domain:name></domain:info></info>',
    );
    expect(body(domainInfo('example.es', 'c0de'))).toContain('<domain:authInfo><domain:pw>c0de</domain:pw></domain:authInfo>');
  });

  it('create a domain with period, host objects, registrant, the three contacts and the auth code, in schema order', () => {
    const built = body(
      domainCreate({
        name: 'example.es',
        years: 1,
        nameServers: ['ns1.example.net', 'ns2.example.net'],
        registrant: 'R1',
        contacts: { admin: 'A1', tech: 'T1', billing: 'B1' },
        authInfo: 'x<y',
      }),
    );
    expect(built).toBe(
      '<create><domain:create xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.es</domain:name>' +
        '<domain:period unit="y">1</domain:period><domain:ns><domain:hostObj>ns1.example.net</domain:hostObj><domain:hostObj>ns2.example.net</domain:hostObj></domain:ns>' +
        '<domain:registrant>R1</domain:registrant><domain:contact type="admin">A1</domain:contact><domain:contact type="tech">T1</domain:contact>' +
        '<domain:contact type="billing">B1</domain:contact><domain:authInfo><domain:pw>x&lt;y</domain:pw></domain:authInfo></domain:create></create>',
    );
  });

  it('update a domain with add, rem and chg in schema order, leaving out what is empty', () => {
    expect(
      body(
        domainUpdate('example.es', {
          addNs: ['ns3.example.net'],
          remNs: ['ns1.example.net'],
          addContacts: [{ type: 'tech', id: 'T2' }],
          remContacts: [{ type: 'tech', id: 'T1' }],
          addStatus: ['clientUpdateProhibited'],
          registrant: 'R2',
          authInfo: 'new',
        }),
      ),
    ).toBe(
      '<update><domain:update xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.es</domain:name>' +
        '<domain:add><domain:ns><domain:hostObj>ns3.example.net</domain:hostObj></domain:ns><domain:contact type="tech">T2</domain:contact><domain:status s="clientUpdateProhibited"/></domain:add>' +
        '<domain:rem><domain:ns><domain:hostObj>ns1.example.net</domain:hostObj></domain:ns><domain:contact type="tech">T1</domain:contact></domain:rem>' +
        '<domain:chg><domain:registrant>R2</domain:registrant><domain:authInfo><domain:pw>new</domain:pw></domain:authInfo></domain:chg></domain:update></update>',
    );
    expect(body(domainUpdate('example.es', { remStatus: ['clientTransferProhibited'] }))).toBe(
      '<update><domain:update xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.es</domain:name>' +
        '<domain:rem><domain:status s="clientTransferProhibited"/></domain:rem></domain:update></update>',
    );
  });

  it('write name servers as host attributes with their addresses where the registry takes them so, and remove them by name', () => {
    const attributes = new Map([['ns1.example.es', { ipv4: '192.0.2.1', ipv6: '2001:db8::1' }]]);
    expect(body(domainUpdate('example.es', { addNs: ['ns1.example.es', 'ns.other.net'], remNs: ['ns0.example.es'], attributes }))).toBe(
      '<update><domain:update xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.es</domain:name>' +
        '<domain:add><domain:ns><domain:hostAttr><domain:hostName>ns1.example.es</domain:hostName><domain:hostAddr ip="v4">192.0.2.1</domain:hostAddr>' +
        '<domain:hostAddr ip="v6">2001:db8::1</domain:hostAddr></domain:hostAttr><domain:hostAttr><domain:hostName>ns.other.net</domain:hostName></domain:hostAttr></domain:ns></domain:add>' +
        '<domain:rem><domain:ns><domain:hostAttr><domain:hostName>ns0.example.es</domain:hostName></domain:hostAttr></domain:ns></domain:rem></domain:update></update>',
    );
  });

  it('add DS data and remove key data in a secDNS-1.1 extension after the update, rem before add', () => {
    const ds = { type: 'digest' as const, keyTag: 12345, algorithm: 13, digestType: 2, digest: 'ABCDEF', flags: null, protocol: null };
    const key = { type: 'pubkey' as const, keyTag: 1, algorithm: 8, digestType: null, digest: 'AwEAAa==', flags: 257, protocol: 3 };
    expect(body(domainUpdate('example.es', {}, secDnsUpdate({ add: ds, rem: key })))).toBe(
      '<update><domain:update xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.es</domain:name></domain:update></update>' +
        '<extension><secDNS:update xmlns:secDNS="urn:ietf:params:xml:ns:secDNS-1.1">' +
        '<secDNS:rem><secDNS:keyData><secDNS:flags>257</secDNS:flags><secDNS:protocol>3</secDNS:protocol><secDNS:alg>8</secDNS:alg><secDNS:pubKey>AwEAAa==</secDNS:pubKey></secDNS:keyData></secDNS:rem>' +
        '<secDNS:add><secDNS:dsData><secDNS:keyTag>12345</secDNS:keyTag><secDNS:alg>13</secDNS:alg><secDNS:digestType>2</secDNS:digestType><secDNS:digest>ABCDEF</secDNS:digest></secDNS:dsData></secDNS:add>' +
        '</secDNS:update></extension>',
    );
  });

  it('check, create, re-address and delete host objects', () => {
    expect(body(hostCheck(['ns1.example.es', 'ns2.example.net']))).toBe(
      '<check><host:check xmlns:host="urn:ietf:params:xml:ns:host-1.0"><host:name>ns1.example.es</host:name><host:name>ns2.example.net</host:name></host:check></check>',
    );
    expect(body(hostCreate('ns1.example.es', { ipv4: '192.0.2.1', ipv6: '2001:db8::1' }))).toBe(
      '<create><host:create xmlns:host="urn:ietf:params:xml:ns:host-1.0"><host:name>ns1.example.es</host:name>' +
        '<host:addr ip="v4">192.0.2.1</host:addr><host:addr ip="v6">2001:db8::1</host:addr></host:create></create>',
    );
    expect(body(hostCreate('ns.example.net'))).toBe(
      '<create><host:create xmlns:host="urn:ietf:params:xml:ns:host-1.0"><host:name>ns.example.net</host:name></host:create></create>',
    );
    expect(
      body(hostUpdateAddresses('ns1.example.es', { ipv4: '192.0.2.1', ipv6: '2001:db8::1' }, { ipv4: '192.0.2.9', ipv6: '2001:db8::1' })),
    ).toBe(
      '<update><host:update xmlns:host="urn:ietf:params:xml:ns:host-1.0"><host:name>ns1.example.es</host:name>' +
        '<host:add><host:addr ip="v4">192.0.2.9</host:addr></host:add><host:rem><host:addr ip="v4">192.0.2.1</host:addr></host:rem></host:update></update>',
    );
    expect(body(hostUpdateAddresses('ns1.example.es', { ipv4: '192.0.2.1', ipv6: '2001:db8::1' }, { ipv4: '192.0.2.1', ipv6: '' }))).toBe(
      '<update><host:update xmlns:host="urn:ietf:params:xml:ns:host-1.0"><host:name>ns1.example.es</host:name>' +
        '<host:rem><host:addr ip="v6">2001:db8::1</host:addr></host:rem></host:update></update>',
    );
    expect(body(hostDelete('ns1.example.es'))).toBe(
      '<delete><host:delete xmlns:host="urn:ietf:params:xml:ns:host-1.0"><host:name>ns1.example.es</host:name></host:delete></delete>',
    );
  });

  it('create a contact with one localised postal info, its voice, e-mail and auth code, escaping what the user typed', () => {
    expect(body(contactCreate('ATL1', contact, 'pw<1>', false))).toBe(
      '<create><contact:create xmlns:contact="urn:ietf:params:xml:ns:contact-1.0"><contact:id>ATL1</contact:id>' +
        '<contact:postalInfo type="loc"><contact:name>María José García</contact:name><contact:org>Ejemplo &amp; Hijos, S.L.</contact:org>' +
        '<contact:addr><contact:street>Carrer &lt;de&gt; Sant Miquel, 1</contact:street><contact:city>Palma</contact:city><contact:sp>Illes Balears</contact:sp>' +
        '<contact:pc>07002</contact:pc><contact:cc>ES</contact:cc></contact:addr></contact:postalInfo>' +
        '<contact:voice>+34.971123456</contact:voice><contact:email>maria@example.es</contact:email>' +
        '<contact:authInfo><contact:pw>pw&lt;1&gt;</contact:pw></contact:authInfo></contact:create></create>',
    );
  });

  it('leave out the organisation of a person and hide a new contact with disclose flag 0 when asked', () => {
    const built = body(contactCreate('ATL1', { ...contact, isOrg: false }, 'pw', true));
    expect(built).not.toContain('contact:org>');
    expect(built).toContain(
      '<contact:disclose flag="0"><contact:name type="loc"/><contact:org type="loc"/><contact:addr type="loc"/><contact:voice/><contact:fax/><contact:email/></contact:disclose>',
    );
  });

  it('change a contact and its disclose flags with contact:update chg', () => {
    expect(body(contactUpdate('ATL1', contact))).toMatch(
      /^<update><contact:update xmlns:contact="urn:ietf:params:xml:ns:contact-1.0"><contact:id>ATL1<\/contact:id><contact:chg><contact:postalInfo type="loc">.*<\/contact:postalInfo><contact:voice>\+34\.971123456<\/contact:voice><contact:email>maria@example\.es<\/contact:email><\/contact:chg><\/contact:update><\/update>$/,
    );
    expect(body(contactDisclose('ATL1', false))).toBe(
      '<update><contact:update xmlns:contact="urn:ietf:params:xml:ns:contact-1.0"><contact:id>ATL1</contact:id><contact:chg>' +
        '<contact:disclose flag="1"><contact:name type="loc"/><contact:org type="loc"/><contact:addr type="loc"/><contact:voice/><contact:fax/><contact:email/></contact:disclose>' +
        '</contact:chg></contact:update></update>',
    );
    expect(body(contactInfo('ATL1'))).toBe(
      '<info><contact:info xmlns:contact="urn:ietf:params:xml:ns:contact-1.0"><contact:id>ATL1</contact:id></contact:info></info>',
    );
  });
});

const response = (inner: string, code = 1000, msg = 'Command completed successfully') =>
  `${HEAD}<response><result code="${code}"><msg lang="en">${msg}</msg></result>${inner}<trID><clTRID>ABC-1</clTRID><svTRID>SRV-9</svTRID></trID></response></epp>`;

describe('EPP responses as the driver reads them', () => {
  it('read the result code, message, reason and both transaction ids', () => {
    const read = readResponse(
      `${HEAD}<response><result code="2304"><msg>Object status prohibits operation</msg><extValue><value><domain:name xmlns:domain="urn:ietf:params:xml:ns:domain-1.0">example.es</domain:name></value><reason>serverUpdateProhibited</reason></extValue></result><trID><clTRID>ABC-1</clTRID><svTRID>SRV-9</svTRID></trID></response></epp>`,
    );
    expect(read).toMatchObject({
      code: 2304,
      message: 'Object status prohibits operation: serverUpdateProhibited',
      clTRID: 'ABC-1',
      svTRID: 'SRV-9',
    });
  });

  it('refuse a frame that is not an EPP response', () => {
    expect(() => readResponse('<html/>')).toThrow('not an EPP document');
    expect(() => readResponse(`${HEAD}<hello/></epp>`)).toThrow('expected a <response>');
  });

  it('read the greeting service menu', () => {
    const greeting = readGreeting(
      `${HEAD}<greeting><svID>Test Registry</svID><svDate>2026-11-27T20:00:00.0Z</svDate><svcMenu><version>1.0</version><lang>en</lang>` +
        '<objURI>urn:ietf:params:xml:ns:domain-1.0</objURI><objURI>urn:ietf:params:xml:ns:host-1.0</objURI>' +
        '<svcExtension><extURI>urn:ietf:params:xml:ns:secDNS-1.1</extURI></svcExtension></svcMenu><dcp><access><all/></access><statement><purpose><admin/></purpose><recipient><ours/></recipient><retention><stated/></retention></statement></dcp></greeting></epp>',
    );
    expect(greeting).toEqual({
      serverId: 'Test Registry',
      versions: ['1.0'],
      langs: ['en'],
      objURIs: ['urn:ietf:params:xml:ns:domain-1.0', 'urn:ietf:params:xml:ns:host-1.0'],
      extURIs: ['urn:ietf:params:xml:ns:secDNS-1.1'],
    });
  });

  it('log in asking only for the objects and extensions both the greeting offers and the driver speaks', () => {
    const services = loginServices({
      serverId: 'R',
      versions: ['1.0'],
      langs: ['en'],
      objURIs: ['urn:ietf:params:xml:ns:domain-1.0', 'urn:ietf:params:xml:ns:contact-1.0', 'urn:example:ns:other-1.0'],
      extURIs: ['urn:ietf:params:xml:ns:secDNS-1.1', 'urn:ietf:params:xml:ns:fee-1.0'],
    });
    expect(services).toEqual({
      objURIs: ['urn:ietf:params:xml:ns:domain-1.0', 'urn:ietf:params:xml:ns:contact-1.0'],
      extURIs: ['urn:ietf:params:xml:ns:secDNS-1.1'],
    });
  });

  it('read domain:infData with its statuses, contacts, host objects, subordinate hosts, dates and auth code, and the secDNS data beside rgp', () => {
    const read = readResponse(
      response(
        '<resData><domain:infData xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.es</domain:name><domain:roid>D1-REP</domain:roid>' +
          '<domain:status s="ok"/><domain:status s="clientTransferProhibited">by the registrar</domain:status><domain:registrant>R1</domain:registrant>' +
          '<domain:contact type="admin">A1</domain:contact><domain:contact type="tech">T1</domain:contact><domain:contact type="billing">B1</domain:contact>' +
          '<domain:ns><domain:hostObj>ns1.example.es</domain:hostObj></domain:ns><domain:host>ns1.example.es</domain:host><domain:host>ns2.example.es</domain:host>' +
          '<domain:clID>registrar1</domain:clID><domain:crDate>2026-01-01T00:00:00.0Z</domain:crDate><domain:upDate>2026-06-01T00:00:00.0Z</domain:upDate>' +
          '<domain:exDate>2027-01-01T00:00:00.0Z</domain:exDate><domain:authInfo><domain:pw>s3cret</domain:pw></domain:authInfo></domain:infData></resData>' +
          '<extension><rgp:infData xmlns:rgp="urn:ietf:params:xml:ns:rgp-1.0"><rgp:rgpStatus s="addPeriod"/></rgp:infData>' +
          '<secDNS:infData xmlns:secDNS="urn:ietf:params:xml:ns:secDNS-1.1"><secDNS:dsData><secDNS:keyTag>12345</secDNS:keyTag><secDNS:alg>13</secDNS:alg>' +
          '<secDNS:digestType>2</secDNS:digestType><secDNS:digest>ABCD</secDNS:digest></secDNS:dsData></secDNS:infData></extension>',
      ),
    );
    expect(readDomainInfo(read.resData)).toEqual({
      name: 'example.es',
      clID: 'registrar1',
      statuses: ['ok', 'clientTransferProhibited'],
      registrant: 'R1',
      contacts: { admin: 'A1', tech: 'T1', billing: 'B1' },
      nameServers: ['ns1.example.es'],
      hostAttrs: [],
      hosts: ['ns1.example.es', 'ns2.example.es'],
      createdAt: Date.UTC(2026, 0, 1) / 1000,
      updatedAt: Date.UTC(2026, 5, 1) / 1000,
      expireAt: Date.UTC(2027, 0, 1) / 1000,
      authInfo: 's3cret',
    });
    expect(readSecDns(read.extension)).toEqual([
      { type: 'digest', keyTag: 12345, algorithm: 13, digestType: 2, digest: 'ABCD', flags: null, protocol: null },
    ]);
  });

  it('read key data with the key tag computed from the key', () => {
    const read = readResponse(
      response(
        '<resData><domain:infData xmlns:domain="urn:ietf:params:xml:ns:domain-1.0"><domain:name>example.es</domain:name></domain:infData></resData>' +
          '<extension><secDNS:infData xmlns:secDNS="urn:ietf:params:xml:ns:secDNS-1.1"><secDNS:keyData><secDNS:flags>257</secDNS:flags><secDNS:protocol>3</secDNS:protocol>' +
          '<secDNS:alg>8</secDNS:alg><secDNS:pubKey>AwEAAQ==</secDNS:pubKey></secDNS:keyData></secDNS:infData></extension>',
      ),
    );
    const [key] = readSecDns(read.extension);
    expect(key).toMatchObject({ type: 'pubkey', flags: 257, protocol: 3, algorithm: 8, digest: 'AwEAAQ==', digestType: null });
    expect(key.keyTag).toBeGreaterThan(0);
  });

  it('read host:chkData availability and host:infData addresses', () => {
    const check = readResponse(
      response(
        '<resData><host:chkData xmlns:host="urn:ietf:params:xml:ns:host-1.0"><host:cd><host:name avail="1">NS1.example.net</host:name></host:cd>' +
          '<host:cd><host:name avail="0">ns2.example.net</host:name><host:reason>In use</host:reason></host:cd></host:chkData></resData>',
      ),
    );
    expect([...readHostCheck(check.resData)]).toEqual(['ns1.example.net']);
    const info = readResponse(
      response(
        '<resData><host:infData xmlns:host="urn:ietf:params:xml:ns:host-1.0"><host:name>ns1.example.es</host:name><host:roid>H1</host:roid><host:status s="ok"/>' +
          '<host:addr ip="v4">192.0.2.1</host:addr><host:addr ip="v4">192.0.2.2</host:addr><host:addr ip="v6">2001:db8::1</host:addr><host:clID>r</host:clID></host:infData></resData>',
      ),
    );
    expect(readHostInfo(info.resData)).toEqual({ name: 'ns1.example.es', ipv4: '192.0.2.1', ipv6: '2001:db8::1' });
  });

  it('read contact:infData, preferring the localised postal info, and its disclose flag', () => {
    const read = readResponse(
      response(
        '<resData><contact:infData xmlns:contact="urn:ietf:params:xml:ns:contact-1.0"><contact:id>ATL1</contact:id><contact:roid>C1</contact:roid><contact:status s="ok"/>' +
          '<contact:postalInfo type="int"><contact:name>Maria Jose Garcia</contact:name><contact:addr><contact:city>Palma</contact:city><contact:cc>ES</contact:cc></contact:addr></contact:postalInfo>' +
          '<contact:postalInfo type="loc"><contact:name>María José García</contact:name><contact:org>Ejemplo</contact:org><contact:addr><contact:street>Sant Miquel, 1</contact:street>' +
          '<contact:street>2º</contact:street><contact:city>Palma</contact:city><contact:sp>Illes Balears</contact:sp><contact:pc>07002</contact:pc><contact:cc>ES</contact:cc></contact:addr></contact:postalInfo>' +
          '<contact:voice>+34.971123456</contact:voice><contact:email>maria@example.es</contact:email><contact:clID>r</contact:clID>' +
          '<contact:disclose flag="0"><contact:voice/><contact:email/></contact:disclose></contact:infData></resData>',
      ),
    );
    expect(readContactInfo(read.resData)).toEqual({
      id: 'ATL1',
      name: 'María José García',
      org: 'Ejemplo',
      street: 'Sant Miquel, 1, 2º',
      city: 'Palma',
      state: 'Illes Balears',
      postalCode: '07002',
      country: 'ES',
      voice: '+34.971123456',
      email: 'maria@example.es',
      hidden: true,
    });
  });
});

describe('frames written to the log', () => {
  it('hide the login password, a new password and every auth code, and nothing else', () => {
    const login = commandXml(loginCommand('registrar1', 'pw-123456', [], []), 'T');
    expect(redactFrame(login)).toContain('<clID>registrar1</clID><pw>***</pw>');
    expect(redactFrame(login)).not.toContain('pw-123456');
    const create = commandXml(contactCreate('ATL1', contact, 'code-1', false), 'T');
    expect(redactFrame(create)).toContain('<contact:pw>***</contact:pw>');
    expect(redactFrame(create)).toContain('maria@example.es');
    expect(redactFrame('<newPW>n3w-pw</newPW><domain:pw roid="X">c</domain:pw>')).toBe(
      '<newPW>***</newPW><domain:pw roid="X">***</domain:pw>',
    );
  });
});
