import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStores, openTestApp } from '../stores.ts';
import { type DnsTest, openDnsTest } from './helpers.ts';

const MAIL_PROVIDER = {
  name: 'mail-provider',
  label: { es: 'Correo externo', en: 'External mail', ca: 'Correu extern' },
  records: [
    { zona: '', type: 'MX', value: 'mx1.mailer.example.', priority: 10 },
    { zona: '', type: 'MX', value: 'mx2.mailer.example.', priority: 20 },
    { zona: '', type: 'TXT', value: 'v=spf1 include:_spf.mailer.example ~all' },
    { zona: 'autoconfig', type: 'CNAME', value: 'autoconfig.mailer.example.' },
    { zona: '_dmarc', type: 'TXT', value: 'v=DMARC1; p=none; rua=mailto:dmarc@{domain}', ttl: 3600 },
  ],
};

describeStores('DNS templates on %s', (kind) => {
  let t: DnsTest;
  beforeAll(async () => {
    t = await openDnsTest(kind, { 'drivers.dns': { templates: [MAIL_PROVIDER] } });
  });
  afterAll(() => t.ctx.close());

  it("lists the provider templates with their label in the caller's language and their records for this zone", async () => {
    const { templates } = (await t.get('templates/?language=ca', t.r)).body.data;
    expect(templates).toHaveLength(1);
    expect(templates[0]).toMatchObject({ name: 'mail-provider', label: 'Correu extern' });
    expect(templates[0].records).toContainEqual({
      name: '_dmarc.zona.es',
      type: 'TXT',
      ttl: 3600,
      values: ['"v=DMARC1; p=none; rua=mailto:dmarc@zona.es"'],
    });
  });

  it('previews a template like an import: it replaces the RRsets it names and leaves the others', async () => {
    await t.list();
    const before = (await t.get('export/')).body.data.text;
    const { plan } = (await t.post('templates/preview/', { template: 'mail-provider' })).body.data;
    expect(plan.changed.map((c: { after: { type: string } }) => c.after.type).sort()).toEqual(['MX', 'TXT']);
    expect(plan.added.map((s: { name: string }) => s.name).sort()).toEqual(['_dmarc.zona.es', 'autoconfig.zona.es']);
    expect(plan.removed).toEqual([]);
    expect((await t.get('export/')).body.data.text).toBe(before);
  });

  it('applies it as one change of the history, keeping the records it does not name', async () => {
    const applied = await t.post('templates/apply/?language=en', { template: 'mail-provider' });
    expect(applied.status).toBe(200);
    expect(applied.body.system.info[0]).toBe('Template applied');
    const list = await t.list();
    expect(list.filter((r) => r.type === 'MX').map((r) => r.value)).toEqual(['mx1.mailer.example.', 'mx2.mailer.example.']);
    expect(list.some((r) => r.zona === 'www' && r.type === 'CNAME')).toBe(true);
    expect((await t.get('history/')).body.data.changes[0]).toMatchObject({ kind: 'template' });
  });

  it('answers 404 for a template that does not exist, and 403 to a reader', async () => {
    expect((await t.post('templates/preview/?language=en', { template: 'nope' })).status).toBe(404);
    expect((await t.post('templates/apply/', { template: 'mail-provider' }, t.r)).status).toBe(403);
    expect((await t.post('templates/preview/', { template: 'mail-provider' }, t.r)).status).toBe(403);
  });
});

it('stops the start when a template holds a record the panel would refuse', async () => {
  const bad = { ...MAIL_PROVIDER, records: [{ zona: '', type: 'MX', value: 'not a host' }] };
  await expect(openTestApp('sqlite', { 'drivers.dns': { templates: [bad] } })).rejects.toThrow(/drivers\.dns\.templates \(mail-provider\)/);
});
