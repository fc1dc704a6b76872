import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAccount, send } from '../fixtures.ts';
import { describeStores } from '../stores.ts';
import { type DnsTest, openDnsTest } from './helpers.ts';
import { type Responder, startResponder } from './responder.ts';

/**
 * The delegation check and the mail health card asking a name server the customer runs (an apex
 * NS of their own), which answers what it likes: real UDP and TCP on loopback, through the app.
 * The panel must answer every check with findings, whatever comes back (issue 44).
 */
describeStores('the delegation check against a name server that answers nonsense on %s', (kind) => {
  let t: DnsTest;
  let healthy: Responder;
  let hostile: Responder;
  let mailItem: number;
  let mailReader: Record<string, string>;
  const SERIAL = 2026120101;

  const findings = async (language = '') => {
    const reply = await t.get(`check/${language && `?language=${language}`}`, t.r);
    expect(reply.status).toBe(200);
    return reply.body.data.findings as { code: string; level: string; params: Record<string, string>; text: string; fix: string }[];
  };
  const about = async (server: string) => (await findings()).filter((f) => f.params.server === server).map((f) => f.code);

  beforeAll(async () => {
    healthy = await startResponder(SERIAL);
    hostile = await startResponder(SERIAL);
    const at = (r: Responder) => `127.0.0.1:${r.port}`;
    t = await openDnsTest(kind, {
      'drivers.dns': {
        nsAddresses: { 'ns1.atalaya.test.': at(healthy), 'ns2.atalaya.test.': at(healthy), 'ns.cliente.example.': at(hostile) },
      },
      'hosting.mailRecords.resolver': at(hostile),
    });
    await t.list();
    // The customer delegates to a server of their own as well as the provider's.
    expect((await t.create({ type: 'NS', zona: '', value: 'ns.cliente.example' })).status).toBe(200);
    const mail = await createAccount(t.ctx.store, { users: { r: 'all=read' }, items: [{ reference: 'correo.es', mail: true }] });
    mailItem = mail.items['correo.es'];
    mailReader = await mail.as('r');
  });
  afterAll(async () => {
    await t?.ctx.close();
    await healthy?.close();
    await hostile?.close();
  });

  it('answers a reader with a finding, in their language, when the server sends bytes that are not DNS, and keeps serving', async () => {
    hostile.mode = 'garbage';
    const seen = hostile.questions.length;
    const all = await findings();
    expect(hostile.questions.length).toBeGreaterThan(seen);
    expect(all.find((f) => f.params.server === 'ns.cliente.example')).toEqual({
      code: 'ns_not_dns',
      level: 'error',
      params: { server: 'ns.cliente.example' },
      text: 'El servidor ns.cliente.example responde algo que no es DNS',
      fix: 'Comprueba que en ns.cliente.example (puerto 53) escucha un servidor de nombres y no otro programa',
    });
    // The provider's own servers were asked and answered as ever.
    expect(all).toContainEqual(expect.objectContaining({ code: 'serial_match', params: { serial: String(SERIAL), count: '2' } }));
    const english = await findings('en');
    expect(english.find((f) => f.code === 'ns_not_dns')?.text).toBe('Name server ns.cliente.example answered something that is not DNS');
    const catalan = await findings('ca');
    expect(catalan.find((f) => f.code === 'ns_not_dns')?.text).toBe('El servidor ns.cliente.example respon una cosa que no és DNS');
    // Asked again and again, the panel is still there.
    for (let i = 0; i < 3; i++) expect(await about('ns.cliente.example')).toEqual(['ns_not_dns']);
    expect((await t.get('list/')).status).toBe(200);
  });

  it('takes no answer from another port than the one it asked: the server counts as silent', async () => {
    hostile.mode = 'other-port';
    expect(await about('ns.cliente.example')).toEqual(['ns_silent']);
  });

  it('passes over an answer with another id and takes the one with its own', async () => {
    hostile.mode = 'wrong-id-first';
    const all = await findings();
    expect(all.filter((f) => f.params.server === 'ns.cliente.example')).toEqual([]);
    // The wrong answer carried serial 1: taken, the serials would differ.
    expect(all).toContainEqual(expect.objectContaining({ code: 'serial_match', params: { serial: String(SERIAL), count: '3' } }));
  });

  it('asks again over TCP after a truncated answer, and finds a TCP answer that is not DNS', async () => {
    hostile.mode = 'tcp-good';
    const seen = hostile.questions.length;
    expect(await findings()).toContainEqual(
      expect.objectContaining({ code: 'serial_match', params: { serial: String(SERIAL), count: '3' } }),
    );
    expect(hostile.questions.slice(seen)).toContain('tcp SOA zona.es');
    hostile.mode = 'tcp-garbage';
    expect(await about('ns.cliente.example')).toEqual(['ns_not_dns']);
  });

  it('finds a server that answers the SOA well and its keys with nonsense, rather than failing the whole check', async () => {
    hostile.mode = 'dnskey-garbage';
    // ns.cliente.example sorts first, so its keys are the ones asked for.
    expect(await about('ns.cliente.example')).toEqual(['ns_not_dns']);
  });

  it('shows the mail health card with failed look-ups when the resolver answers nonsense', async () => {
    hostile.mode = 'garbage';
    const seen = hostile.questions.length;
    const reply = await send(t.ctx.app, 'GET', `/service/${mailItem}/mail/health/`, mailReader);
    expect(reply.status).toBe(200);
    expect(hostile.questions.length).toBeGreaterThan(seen);
    const codes = (reply.body.data.findings as { code: string }[]).map((f) => f.code);
    expect(codes).toContain('lookup_failed');
    expect(codes.every((c) => c === 'lookup_failed' || c.startsWith('dkim') || c === 'mtasts_off')).toBe(true);
  });
});
