import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestRegistry } from '../src/server.ts';
import { C, code, D, EPP_OPEN, EppTestClient, H, NS, reason, registryFor, testCertificates } from './harness.ts';

/**
 * The command examples of RFC 5731–5733, 5910 and 3915 (names and values adapted to one story),
 * each sent in order: none may be refused by the grammar, and each gets the answer the RFC shows.
 */
const certs = testCertificates();
let registry: TestRegistry;
let client: EppTestClient;
beforeAll(async () => {
  registry = await registryFor(certs);
  client = await EppTestClient.open(registry.port, certs.client, certs.ca);
});
afterAll(async () => {
  client.close();
  await registry.close();
});

const SEC = `xmlns:secDNS="${NS.secDNS}"`;
const examples: [string, string, number][] = [
  [
    'login with a new password',
    `<login><clID>registrar-a</clID><pw>secret-a1</pw><newPW>secret-a2</newPW><options><version>1.0</version><lang>en</lang></options><svcs><objURI>${NS.domain}</objURI><objURI>${NS.host}</objURI><objURI>${NS.contact}</objURI><svcExtension><extURI>${NS.secDNS}</extURI><extURI>${NS.rgp}</extURI></svcExtension></svcs></login>`,
    1000,
  ],
  [
    'contact create with int and loc postal info and disclose',
    `<create><contact:create ${C}><contact:id>sh8013</contact:id><contact:postalInfo type="int"><contact:name>John Doe</contact:name><contact:org>Example Inc.</contact:org><contact:addr><contact:street>123 Example Dr.</contact:street><contact:street>Suite 100</contact:street><contact:city>Dulles</contact:city><contact:sp>VA</contact:sp><contact:pc>20166-6503</contact:pc><contact:cc>US</contact:cc></contact:addr></contact:postalInfo><contact:postalInfo type="loc"><contact:name>Joan Doé</contact:name><contact:addr><contact:city>Dulles</contact:city><contact:cc>US</contact:cc></contact:addr></contact:postalInfo><contact:voice x="1234">+1.7035555555</contact:voice><contact:fax>+1.7035555556</contact:fax><contact:email>jdoe@example.com</contact:email><contact:authInfo><contact:pw>2fooBAR</contact:pw></contact:authInfo><contact:disclose flag="0"><contact:voice/><contact:email/></contact:disclose></contact:create></create>`,
    1000,
  ],
  [
    'contact check',
    `<check><contact:check ${C}><contact:id>sh8013</contact:id><contact:id>sah8013</contact:id></contact:check></check>`,
    1000,
  ],
  [
    'contact info with auth',
    `<info><contact:info ${C}><contact:id>sh8013</contact:id><contact:authInfo><contact:pw>2fooBAR</contact:pw></contact:authInfo></contact:info></info>`,
    1000,
  ],
  [
    'contact update',
    `<update><contact:update ${C}><contact:id>sh8013</contact:id><contact:add><contact:status s="clientDeleteProhibited"/></contact:add><contact:chg><contact:postalInfo type="int"><contact:org/><contact:addr><contact:street>124 Example Dr.</contact:street><contact:street>Suite 200</contact:street><contact:city>Dulles</contact:city><contact:sp>VA</contact:sp><contact:pc>20166-6503</contact:pc><contact:cc>US</contact:cc></contact:addr></contact:postalInfo><contact:voice>+1.7034444444</contact:voice><contact:fax/><contact:authInfo><contact:pw>2fooBAR</contact:pw></contact:authInfo><contact:disclose flag="1"><contact:voice/><contact:email/></contact:disclose></contact:chg></contact:update></update>`,
    1000,
  ],
  ['host create (external)', `<create><host:create ${H}><host:name>ns1.example.net</host:name></host:create></create>`, 1000],
  ['host create (external, second)', `<create><host:create ${H}><host:name>ns2.example.net</host:name></host:create></create>`, 1000],
  [
    'host check',
    `<check><host:check ${H}><host:name>ns1.example.net</host:name><host:name>ns3.example.net</host:name></host:check></check>`,
    1000,
  ],
  [
    'domain create with period, host objects, contacts and DS data',
    `<create><domain:create ${D}><domain:name>example.com</domain:name><domain:period unit="y">2</domain:period><domain:ns><domain:hostObj>ns1.example.net</domain:hostObj><domain:hostObj>ns2.example.net</domain:hostObj></domain:ns><domain:registrant>sh8013</domain:registrant><domain:contact type="admin">sh8013</domain:contact><domain:contact type="tech">sh8013</domain:contact><domain:authInfo><domain:pw>2fooBAR</domain:pw></domain:authInfo></domain:create></create><extension><secDNS:create ${SEC}><secDNS:maxSigLife>604800</secDNS:maxSigLife><secDNS:dsData><secDNS:keyTag>12345</secDNS:keyTag><secDNS:alg>3</secDNS:alg><secDNS:digestType>1</secDNS:digestType><secDNS:digest>49FD46E6C4B45C55D4AC</secDNS:digest><secDNS:keyData><secDNS:flags>257</secDNS:flags><secDNS:protocol>3</secDNS:protocol><secDNS:alg>1</secDNS:alg><secDNS:pubKey>AQPJ////4Q==</secDNS:pubKey></secDNS:keyData></secDNS:dsData></secDNS:create></extension>`,
    1000,
  ],
  [
    'host create (subordinate, with addresses)',
    `<create><host:create ${H}><host:name>ns1.example.com</host:name><host:addr ip="v4">192.0.2.2</host:addr><host:addr ip="v4">192.0.2.29</host:addr><host:addr ip="v6">1080:0:0:0:8:800:200C:417A</host:addr></host:create></create>`,
    1000,
  ],
  ['host info', `<info><host:info ${H}><host:name>ns1.example.com</host:name></host:info></info>`, 1000],
  [
    'host update',
    `<update><host:update ${H}><host:name>ns1.example.com</host:name><host:add><host:addr ip="v4">192.0.2.22</host:addr><host:status s="clientUpdateProhibited"/></host:add><host:rem><host:addr ip="v6">1080:0:0:0:8:800:200C:417A</host:addr></host:rem></host:update></update>`,
    1000,
  ],
  [
    'domain check',
    `<check><domain:check ${D}><domain:name>example.com</domain:name><domain:name>example.net</domain:name><domain:name>example.org</domain:name></domain:check></check>`,
    1000,
  ],
  [
    'domain info with hosts and auth',
    `<info><domain:info ${D}><domain:name hosts="all">example.com</domain:name><domain:authInfo><domain:pw>2fooBAR</domain:pw></domain:authInfo></domain:info></info>`,
    1000,
  ],
  [
    'domain update with add, rem and chg',
    `<update><domain:update ${D}><domain:name>example.com</domain:name><domain:add><domain:contact type="billing">sh8013</domain:contact><domain:status s="clientHold" lang="en">Payment overdue.</domain:status></domain:add><domain:rem><domain:contact type="tech">sh8013</domain:contact></domain:rem><domain:chg><domain:registrant>sh8013</domain:registrant><domain:authInfo><domain:pw>2BARfoo</domain:pw></domain:authInfo></domain:chg></domain:update></update>`,
    1000,
  ],
  [
    'domain update with secDNS rem and add',
    `<update><domain:update ${D}><domain:name>example.com</domain:name></domain:update></update><extension><secDNS:update ${SEC} urgent="true"><secDNS:rem><secDNS:all>true</secDNS:all></secDNS:rem><secDNS:add><secDNS:dsData><secDNS:keyTag>12346</secDNS:keyTag><secDNS:alg>3</secDNS:alg><secDNS:digestType>1</secDNS:digestType><secDNS:digest>38EC35D5B3A34B44C39B</secDNS:digest></secDNS:dsData></secDNS:add><secDNS:chg><secDNS:maxSigLife>605900</secDNS:maxSigLife></secDNS:chg></secDNS:update></extension>`,
    1000,
  ],
  ['domain renew', 'RENEW', 1000],
  [
    'domain transfer query with no transfer',
    `<transfer op="query"><domain:transfer ${D}><domain:name>example.com</domain:name></domain:transfer></transfer>`,
    2301,
  ],
  ['poll request', '<poll op="req"/>', 1300],
  ['hello', 'HELLO', 0],
  ['logout', '<logout/>', 1500],
];

describe('the RFC examples pass the grammar', () => {
  it.each(examples)('%s', async (_title, command, expected) => {
    let frame = command;
    if (command === 'RENEW') {
      const exDate = registry.state.data.domains['example.com'].exDate.slice(0, 10);
      frame = `<renew><domain:renew ${D}><domain:name>example.com</domain:name><domain:curExpDate>${exDate}</domain:curExpDate><domain:period unit="y">5</domain:period></domain:renew></renew>`;
    }
    if (command === 'HELLO') {
      expect(await client.send(`${EPP_OPEN}<hello/></epp>`)).toContain('<greeting>');
      return;
    }
    const answer = await client.send(`${EPP_OPEN}<command>${frame}<clTRID>ABC-12345</clTRID></command></epp>`);
    expect(code(answer), reason(answer)).toBe(expected);
  });
});
