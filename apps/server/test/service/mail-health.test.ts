import type { DnsRecord, MailHealth } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { txtContent } from '../../src/modules/dns/rrsets.ts';
import { PDNS_MISSING, type PowerDns, startPowerDns } from '../dns/powerdns-harness.ts';
import { type Account, createAccount, send } from '../fixtures.ts';
import { openTestApp, type TestContext } from '../stores.ts';
import { api } from './helpers.ts';

describe.skipIf(PDNS_MISSING)('the mail health card and the records to copy, against a real PowerDNS', () => {
  let pdns: PowerDns;
  let ctx: TestContext;
  let acc: Account;
  let hosted: number;
  let elsewhere: number;

  beforeAll(async () => {
    pdns = await startPowerDns();
    ctx = await openTestApp('sqlite', {
      'drivers.dns': pdns.driverConfig,
      'hosting.mailRecords.resolver': `127.0.0.1:${pdns.dnsPort}`,
      'hosting.mailRecords.mtaSts': 'testing',
      // The policy's own host has its test (mta-sts-site.test.ts); this card needs no ACME order.
      'hosting.mailRecords.mtaStsHost': false,
      'hosting.mailRecords.tlsRpt': 'mailto:tls-reports@{zone}',
    });
    acc = await createAccount(ctx.store, {
      users: { w: 'all=write', r: 'all=read' },
      items: [
        { reference: 'correo.test', domain: true, service: 'normal', mail: true },
        { reference: 'fuera.test', mail: true },
      ],
    });
    hosted = acc.items['correo.test'];
    elsewhere = acc.items['fuera.test'];
    await ctx.app.runtime.outbox.drain();
    await api(ctx, acc, 'w', `/service/${hosted}/dns/list/`);
    await ctx.app.runtime.outbox.drain();
  }, 30000);
  afterAll(async () => {
    await ctx?.close();
    await pdns?.stop();
  });

  const health = async (id: number, user = 'r') => {
    const reply = await api<MailHealth>(ctx, acc, user, `/service/${id}/mail/health/`);
    expect(reply.status).toBe(200);
    return reply.body.data;
  };
  const codes = (h: MailHealth) => h.findings.map((f) => `${f.level} ${f.code}`);
  const records = async () => (await api<{ dnss: DnsRecord[] }>(ctx, acc, 'w', `/service/${hosted}/dns/list/`)).body.data.dnss;
  /** A zone kept at another DNS host: written to PowerDNS directly, the panel knows nothing of it. */
  const elsewhereZone = (rrsets: { name: string; type: string; contents: string[] }[]) =>
    ctx.app.runtime.drivers.dns.applyZone({
      itemId: elsewhere,
      name: 'fuera.test',
      version: Math.floor(Date.now() / 1000),
      rrsets: rrsets.map((s) => ({ ...s, name: `${s.name}.`, ttl: 60 }) as never),
    });

  it('finds everything in order where the panel published the records: MX, SPF, DKIM, DMARC and MTA-STS', async () => {
    const h = await health(hosted);
    expect(h.hosted).toBe(true);
    expect(codes(h)).toEqual(['ok mx_ok', 'ok spf_ok', 'ok dkim_ok', 'ok dmarc_ok', 'ok mtasts_ok']);
    expect(h.records.map((r) => `${r.purpose} ${r.live}`)).toEqual([
      'mx ok',
      'host ok',
      'spf ok',
      'dkim ok',
      'dmarc ok',
      'mtasts ok',
      'tlsrpt ok',
    ]);
    expect(h.findings.every((f) => f.fix === '')).toBe(true);
    expect(h.mtaStsPolicy).toBe('version: STSv1\r\nmode: testing\r\nmx: mail.correo.test\r\nmax_age: 604800\r\n');
    expect(h.mtaStsServed).toBe(false);
  });

  it('finds each fault made on purpose: no DKIM record, an SPF that omits the server, no DMARC', async () => {
    const list = await records();
    const dkim = list.find((r) => r.zona.endsWith('._domainkey'))!;
    const spf = list.find((r) => r.type === 'TXT' && r.zona === '' && r.value.startsWith('v=spf1'))!;
    const dmarc = list.find((r) => r.zona === '_dmarc')!;
    expect((await api(ctx, acc, 'w', `/service/${hosted}/dns/${dkim.id}/delete/`)).status).toBe(200);
    expect(
      (await api(ctx, acc, 'w', `/service/${hosted}/dns/${spf.id}/save/`, { value: 'v=spf1 ip4:203.0.113.9 -all', ttl: '0' })).status,
    ).toBe(200);
    expect((await api(ctx, acc, 'w', `/service/${hosted}/dns/${dmarc.id}/delete/`)).status).toBe(200);
    await ctx.app.runtime.outbox.drain();
    const h = await health(hosted);
    expect(codes(h)).toEqual(['ok mx_ok', 'error spf_omits_server', 'error dkim_missing', 'error dmarc_missing', 'ok mtasts_ok']);
    const selector = dkim.zona.replace('._domainkey', '');
    expect(h.findings.find((f) => f.code === 'spf_omits_server')).toMatchObject({
      text: 'El SPF no incluye al servidor de correo (192.0.2.25): el correo enviado desde aquí puede ir a spam',
      fix: 'Añade ip4:192.0.2.25 al registro SPF, antes de su «all»',
    });
    expect(h.findings.find((f) => f.code === 'dkim_missing')).toMatchObject({
      params: { selector, name: `${selector}._domainkey.correo.test` },
      fix: `Publica el registro TXT ${selector}._domainkey.correo.test que se muestra en «Registros DNS»`,
    });
    expect(h.findings.find((f) => f.code === 'dmarc_missing')?.fix).toBe(
      'Añade el registro TXT _dmarc.correo.test con el valor v=DMARC1; p=none',
    );
    expect(h.records.map((r) => `${r.purpose} ${r.live}`)).toEqual([
      'mx ok',
      'host ok',
      'spf different',
      'dkim missing',
      'dmarc missing',
      'mtasts ok',
      'tlsrpt ok',
    ]);
  });

  it('follows includes and redirects when judging an SPF, and refuses one that is there twice', async () => {
    const spf = (await records()).find((r) => r.type === 'TXT' && r.zona === '' && r.value.startsWith('v=spf1'))!;
    await api(ctx, acc, 'w', `/service/${hosted}/dns/create/`, {
      zona: '_spf',
      type: 'TXT',
      value: 'v=spf1 ip4:192.0.2.0/24 -all',
      ttl: '0',
    });
    await api(ctx, acc, 'w', `/service/${hosted}/dns/${spf.id}/save/`, { value: 'v=spf1 include:_spf.correo.test -all', ttl: '0' });
    await ctx.app.runtime.outbox.drain();
    expect(codes(await health(hosted))).toContain('ok spf_ok');
    await api(ctx, acc, 'w', `/service/${hosted}/dns/${spf.id}/save/`, {
      value: 'v=spf1 -ip4:192.0.2.25 redirect=_spf.correo.test',
      ttl: '0',
    });
    await ctx.app.runtime.outbox.drain();
    expect(codes(await health(hosted))).toContain('error spf_omits_server');
    await api(ctx, acc, 'w', `/service/${hosted}/dns/${spf.id}/save/`, { value: 'v=spf1 redirect=_spf.correo.test', ttl: '0' });
    await api(ctx, acc, 'w', `/service/${hosted}/dns/create/`, { zona: '', type: 'TXT', value: 'v=spf1 mx ~all', ttl: '0' });
    await ctx.app.runtime.outbox.drain();
    const h = await health(hosted);
    expect(h.findings.find((f) => f.check === 'spf')).toMatchObject({ level: 'error', code: 'spf_multiple', params: { count: '2' } });
  });

  it('shows the records to copy for a zone kept elsewhere, and checks each live as the customer copies them', async () => {
    const before = await health(elsewhere);
    expect(before.hosted).toBe(false);
    expect(before.records.map((r) => `${r.purpose} ${r.name} ${r.type}`)).toEqual([
      'mx fuera.test MX',
      'host mail.fuera.test A',
      'spf fuera.test TXT',
      expect.stringMatching(/^dkim [a-z]\d{6}\._domainkey\.fuera\.test TXT$/),
      'dmarc _dmarc.fuera.test TXT',
      'mtasts _mta-sts.fuera.test TXT',
      'tlsrpt _smtp._tls.fuera.test TXT',
    ]);
    // Not at any DNS host yet: nothing can be looked up.
    expect(before.records.every((r) => r.live === 'unknown')).toBe(true);
    expect(codes(before)).toContain('error lookup_failed');
    const dkim = before.records.find((r) => r.purpose === 'dkim')!;
    expect(dkim.strings).toHaveLength(2);
    expect(dkim.strings.join('')).toBe(dkim.value);
    const copied = (purpose: string) => {
      const r = before.records.find((x) => x.purpose === purpose)!;
      const value =
        r.type === 'MX' ? `${r.priority} ${r.value}` : r.type === 'TXT' ? r.strings.map((s) => txtContent(s)).join(' ') : r.value;
      return { name: r.name, type: r.type, contents: [value] };
    };
    await elsewhereZone([copied('mx'), copied('host'), copied('spf')]);
    const partway = await health(elsewhere);
    expect(partway.records.map((r) => `${r.purpose} ${r.live}`)).toEqual([
      'mx ok',
      'host ok',
      'spf ok',
      'dkim missing',
      'dmarc missing',
      'mtasts missing',
      'tlsrpt missing',
    ]);
    expect(codes(partway)).toEqual(['ok mx_ok', 'ok spf_ok', 'error dkim_missing', 'error dmarc_missing', 'warning mtasts_missing']);
    await elsewhereZone([copied('mx'), copied('host'), copied('spf'), copied('dkim'), copied('dmarc'), copied('mtasts'), copied('tlsrpt')]);
    const done = await health(elsewhere);
    expect(done.records.every((r) => r.live === 'ok')).toBe(true);
    expect(codes(done)).toEqual(['ok mx_ok', 'ok spf_ok', 'ok dkim_ok', 'ok dmarc_ok', 'ok mtasts_ok']);
  });

  it('says each finding and its fix in the language the screens show', async () => {
    const said = async (lang: string) => {
      const headers = await acc.as('r');
      const reply = await send<MailHealth>(ctx.app, 'GET', `/service/${hosted}/mail/health/`, {
        ...headers,
        cookie: `${headers.cookie}; _lang=${lang}`,
      });
      return reply.body.data.findings.find((f) => f.check === 'dmarc')!;
    };
    expect(await said('en')).toMatchObject({
      text: 'The domain publishes no DMARC: Gmail and Yahoo reject or junk mail without it',
      fix: 'Add the TXT record _dmarc.correo.test with the value v=DMARC1; p=none',
    });
    expect((await said('ca')).text).toBe('El domini no publica DMARC: Gmail i Yahoo rebutgen o marquen com a brossa el correu sense');
  });
});
