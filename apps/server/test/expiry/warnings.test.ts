import { X509Certificate } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { warnExpiring } from '../../src/modules/expiry/warnings.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { leafCertificate } from '../sites/certs.ts';
import { caller, type Headers } from '../sites/helpers.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

const DAY = 86_400;

describeStores('expiry warnings on %s', (kind) => {
  let ctx: TestContext;
  let account: Account;
  let owner: Headers;
  let expiresAt: number;
  const api = caller(() => ctx);
  const mails = () => {
    const dir = path.join(ctx.config.dataDir, 'outbox');
    try {
      return readdirSync(dir).map((name) => readFileSync(path.join(dir, name), 'utf8'));
    } catch {
      return [];
    }
  };

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, {
      users: { owner: 'all=write', reader: 'all=read', blind: 'all=write,service_subdomains=disabled' },
      items: [
        { reference: 'tienda.test', service: 'normal' },
        { reference: 'caduca.test', domain: true, expireAt: Math.floor(Date.now() / 1000) + 20 * DAY },
      ],
    });
    for (const [name, language] of [
      ['owner', 'en'],
      ['reader', 'es'],
      ['blind', 'ca'],
    ]) {
      await ctx.store
        .updateTable('user')
        .set({ email: `${name}@tienda.test`, language })
        .where('id', '=', account.users[name])
        .execute();
    }
    owner = await account.as('owner');
    // An uploaded certificate valid for 30 days from now.
    const pem = leafCertificate(['www.tienda.test']);
    expiresAt = Math.floor(new X509Certificate(pem.cert).validToDate.getTime() / 1000);
    const created = await api.upload(
      `/service/${account.items['tienda.test']}/subdomain/create/`,
      owner,
      { subDomain: 'www', folder: 'www', SSLActive: '1' },
      { cert: pem.cert, certkey: pem.key, certchain: pem.chain },
    );
    expect(created.status).toBe(200);
  });
  afterAll(() => ctx.close());

  it('lists on the dashboard what the user can see that expires within the largest offset, soonest first', async () => {
    const seen = await api.get('/expiring/', await account.as('reader'));
    expect(seen.status).toBe(200);
    expect(seen.body.data.expiring).toEqual([
      {
        kind: 'domain',
        itemId: account.items['caduca.test'],
        reference: 'caduca.test',
        name: 'caduca.test',
        expiresAt: expect.any(Number),
        source: null,
        expiry: { state: 'active', until: expect.any(Number) },
      },
      {
        kind: 'certificate',
        itemId: account.items['tienda.test'],
        reference: 'tienda.test',
        name: 'www.tienda.test',
        expiresAt,
        source: 'upload',
      },
    ]);
    const blind = await api.get('/expiring/', await account.as('blind'));
    expect(blind.body.data.expiring.map((e: { kind: string }) => e.kind)).toEqual(['domain']);
  });

  it('mails the users who may write each thing once per offset, in their language, and nothing twice', async () => {
    const at = Math.floor(Date.now() / 1000);
    const first = await warnExpiring(ctx.app.runtime, at);
    expect(first.map((w) => [w.name, w.days, w.to])).toEqual([
      ['caduca.test', 30, ['owner@tienda.test', 'blind@tienda.test']],
      ['www.tienda.test', 30, ['owner@tienda.test']],
    ]);
    const sent = mails();
    expect(sent).toHaveLength(3);
    const certificateMail = sent.find((m) => m.includes('Subject: Expiring soon: www.tienda.test'));
    expect(certificateMail).toContain('To: owner@tienda.test');
    expect(certificateMail).toContain('It is an uploaded certificate');
    expect(sent.some((m) => m.includes('Subject: Caduca aviat: caduca.test'))).toBe(true);
    expect(await warnExpiring(ctx.app.runtime, at + DAY)).toEqual([]);
    // Six days before the certificate expires, the 7-day warning goes out; the 1-day one later.
    const week = await warnExpiring(ctx.app.runtime, expiresAt - 6 * DAY);
    expect(week.find((w) => w.name === 'www.tienda.test')?.days).toBe(7);
    expect(await warnExpiring(ctx.app.runtime, expiresAt - 6 * DAY + 3600)).toEqual([]);
    expect((await warnExpiring(ctx.app.runtime, expiresAt - DAY / 2)).find((w) => w.name === 'www.tienda.test')?.days).toBe(1);
  });
});
