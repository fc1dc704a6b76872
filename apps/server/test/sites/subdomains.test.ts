import { afterAll, beforeAll, expect, it } from 'vitest';
import { readLocalSite } from '../../src/drivers/sites/local.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { leafCertificate, manyNamesCertificate, strayKey } from './certs.ts';
import { caller, type Headers, SITES_ITEMS } from './helpers.ts';

describeStores('sites (subdomains with SSL) on %s', (kind) => {
  let ctx: TestContext;
  let account: Account;
  let owner: Headers;
  let reader: Headers;
  let service: number;
  let other: number;
  let parking: number;
  const api = caller(() => ctx);
  const good = leafCertificate(['shop.tienda.test', '*.tienda.test']);

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, {
      users: { owner: 'all=write', reader: 'all=read', nosites: 'all=write,service_subdomains=disabled' },
      items: SITES_ITEMS,
    });
    owner = await account.as('owner');
    reader = await account.as('reader');
    service = account.items['tienda.test'];
    other = account.items['otra.test'];
    parking = account.items['aparcado.test'];
  });
  afterAll(() => ctx.close());

  const create = (fields: Record<string, string>, headers = owner, id = service) =>
    api.post(`/service/${id}/subdomain/create/`, headers, fields);

  it('creates a site without SSL, lists it and applies it to the web driver', async () => {
    const res = await create({ subDomain: 'Blog', folder: '/blog/public', SSLActive: '0' });
    expect(res.status).toBe(200);
    const site = res.body.data.subdomain;
    expect(site).toMatchObject({
      subdominio: 'blog',
      referencePunycode: 'tienda.test',
      directorio: 'blog/public',
      ssl: { enabled: false },
      redirections: 0,
      eliminable: true,
    });
    expect(res.body.system.job).toBeGreaterThan(0);
    expect(res.body.system.info[0]).toBeTruthy();
    await ctx.app.runtime.outbox.drain();
    expect(readLocalSite(ctx.config.dataDir, `site-${site.id}`)).toMatchObject({
      host: 'blog.tienda.test',
      folder: 'blog/public',
      ssl: null,
    });
    const list = await api.get(`/service/${service}/subdomain/list/`, reader);
    expect(list.body.data.subdomains.map((s: { subdominio: string }) => s.subdominio)).toContain('blog');
    const one = await api.get(`/service/${service}/subdomain/${site.id}/`, reader);
    expect(one.body.data.subdomain.id).toBe(site.id);
  });

  it('shows a site change for a hosting node whose agent is away as waiting for that node', async () => {
    const node = await ctx.store
      .insertInto('node')
      .values({ name: 'web8', host: 'web8', roles: 'web', state: 'active', created_at: now() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.store.updateTable('item').set({ node_id: node.id }).where('id', '=', service).execute();
    try {
      const res = await create({ subDomain: 'nodo', folder: '/nodo', SSLActive: '0' });
      await ctx.app.runtime.outbox.drain();
      const one = await api.get(`/service/${service}/subdomain/${res.body.data.subdomain.id}/`, reader);
      expect(one.body.data.subdomain).toMatchObject({ state: 'pending', waitingFor: 'web8' });
    } finally {
      await ctx.store.updateTable('item').set({ node_id: null }).where('id', '=', service).execute();
      await ctx.store.deleteFrom('job').where('node_id', '=', node.id).execute();
    }
  });

  it('takes the full host name and several labels, refuses invalid and duplicate names', async () => {
    expect((await create({ subDomain: 'a.b.tienda.test', folder: 'ab' })).body.data.subdomain.subdominio).toBe('a.b');
    for (const bad of ['-x', 'x_y', 'a..b', '*', 'ñandú', 'x'.repeat(64), '']) {
      const res = await create({ subDomain: bad, folder: 'f' });
      expect(res.status, bad).toBe(400);
      expect(res.body.system.inputs).toEqual(['subDomain']);
    }
    const dup = await create({ subDomain: 'BLOG', folder: 'other' });
    expect(dup.status).toBe(400);
    expect(dup.body.system.errors[0]).toBe('Ya existe');
  });

  it('keeps the folder inside the web root', async () => {
    for (const bad of ['../etc', 'a/../../b', 'a\\b', 'a\u0000b', '']) {
      const res = await create({ subDomain: `f${Math.random().toString(36).slice(2, 8)}`, folder: bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.system.inputs).toEqual(['folder']);
    }
    expect((await create({ subDomain: 'root', folder: '/' })).body.data.subdomain.directorio).toBe('');
  });

  it('creates a site with SSL from a multipart upload and never sends the key back', async () => {
    const res = await api.upload(
      `/service/${service}/subdomain/create/`,
      owner,
      { subDomain: 'shop', folder: 'shop', SSLActive: '1' },
      { cert: good.cert, certkey: good.key, certchain: good.chain },
    );
    expect(res.status, JSON.stringify(res.body.system)).toBe(200);
    const site = res.body.data.subdomain;
    expect(site.ssl).toMatchObject({ enabled: true, hasKey: true, cert: { key: '' } });
    expect(site.ssl.info.names).toContain('shop.tienda.test');
    expect(JSON.stringify(res.body)).not.toContain('PRIVATE KEY');
    await ctx.app.runtime.outbox.drain();
    const applied = readLocalSite(ctx.config.dataDir, `site-${site.id}`);
    expect(applied?.ssl?.cert).toContain('BEGIN CERTIFICATE');
    const stored = await ctx.store.selectFrom('site').select('cert_key_sealed').where('id', '=', site.id).executeTakeFirstOrThrow();
    expect(stored.cert_key_sealed).not.toContain('PRIVATE');
  });

  it('requires certificate and key when SSL is on, and checks them', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ cert: '', certkey: '' }, 'cert', 'Campo obligatorio'],
      [{ cert: good.cert, certkey: '' }, 'certkey', 'Campo obligatorio'],
      [{ cert: good.cert, certkey: strayKey(), certchain: good.chain }, 'certkey', 'La clave privada no corresponde al certificado'],
      [
        { cert: `${good.cert}\ngarbage`, certkey: good.key },
        'cert',
        'El contenido debe ser solo el bloque PEM, sin texto antes ni después',
      ],
      [
        { cert: good.cert, certkey: good.key, certchain: leafCertificate(['z.test']).cert },
        'certchain',
        'La cadena de certificación no enlaza con el certificado',
      ],
    ];
    for (const [fields, input, message] of cases) {
      const res = await create({ subDomain: 'secure', folder: 'secure', SSLActive: '1', ...fields });
      expect(res.status).toBe(400);
      expect(res.body.system).toMatchObject({ inputs: [input], errors: [message] });
    }
  });

  it('refuses an expired certificate and a certificate for another name, with clear errors', async () => {
    const expired = leafCertificate(['old.tienda.test'], { expired: true });
    const res = await api.post(`/service/${service}/subdomain/create/`, owner, {
      subDomain: 'old',
      folder: 'old',
      SSLActive: '1',
      cert: expired.cert,
      certkey: expired.key,
      language: 'en',
    });
    expect(res.body.system).toMatchObject({ inputs: ['cert'], errors: ['The certificate expired on 2021-01-01'] });
    const wrong = leafCertificate(['elsewhere.test']);
    const res2 = await create({ subDomain: 'named', folder: 'named', SSLActive: '1', cert: wrong.cert, certkey: wrong.key });
    expect(res2.body.system.errors[0]).toBe('El certificado no cubre el nombre named.tienda.test');
  });

  it('refuses a 5,000-name certificate with a clear answer (never a 500)', async () => {
    const many = manyNamesCertificate(5000);
    const asFile = await api.upload(
      `/service/${service}/subdomain/create/`,
      owner,
      { subDomain: 'many', folder: 'many', SSLActive: '1' },
      { cert: many.cert, certkey: many.key },
    );
    expect([400, 413], JSON.stringify(asFile.body.system.errors)).toContain(asFile.status);
    expect(asFile.body.system.valid).toBe(false);
    const asField = await create({ subDomain: 'many', folder: 'many', SSLActive: '1', cert: many.cert, certkey: many.key });
    expect([400, 413]).toContain(asField.status);
    const small = manyNamesCertificate(1500);
    const res = await create({ subDomain: 'many', folder: 'many', SSLActive: '1', cert: small.cert, certkey: small.key });
    expect(res.status).toBe(400);
    expect(res.body.system.inputs).toEqual(['cert']);
  });

  it('saves the folder and SSL, keeping the stored key when the field is left empty', async () => {
    const created = (await create({ subDomain: 'edit', folder: 'edit' })).body.data.subdomain;
    const url = `/service/${service}/subdomain/${created.id}/save/`;
    const on = await api.post(url, owner, { folder: 'edit2', SSLActive: '1', cert: good.cert, certkey: good.key, certchain: good.chain });
    expect(on.body.data.subdomain).toMatchObject({ directorio: 'edit2', ssl: { enabled: true } });
    const again = await api.post(url, owner, { folder: 'edit3', SSLActive: '1' });
    expect(again.status).toBe(200);
    expect(again.body.data.subdomain.ssl.enabled).toBe(true);
    const off = await api.post(url, owner, { folder: 'edit3', SSLActive: '0' });
    expect(off.body.data.subdomain.ssl).toMatchObject({ enabled: false, hasKey: true });
    await ctx.app.runtime.outbox.drain();
    expect(readLocalSite(ctx.config.dataDir, `site-${created.id}`)).toMatchObject({ folder: 'edit3', ssl: null });
  });

  it('deletes a site and removes it from the web driver', async () => {
    const created = (await create({ subDomain: 'gone', folder: 'gone' })).body.data.subdomain;
    await ctx.app.runtime.outbox.drain();
    expect(readLocalSite(ctx.config.dataDir, `site-${created.id}`)).not.toBeNull();
    const res = await api.get(`/service/${service}/subdomain/${created.id}/delete/`, owner);
    expect(res.status).toBe(200);
    await ctx.app.runtime.outbox.drain();
    expect(readLocalSite(ctx.config.dataDir, `site-${created.id}`)).toBeNull();
    expect((await api.get(`/service/${service}/subdomain/${created.id}/`, owner)).status).toBe(404);
  });

  // The SPA links https or http from ssl.enabled: e2e/sites/sites.spec.ts checks the link itself.
  it('lists SSL as on for a site saved with a certificate, and off for one without', async () => {
    await create({ subDomain: 'plain', folder: 'plain' });
    const list = (await api.get(`/service/${service}/subdomain/list/`, owner)).body.data.subdomains;
    const site = (name: string) => list.find((s: { subdominio: string }) => s.subdominio === name);
    expect(site('shop').ssl).toMatchObject({ enabled: true, hasKey: true });
    expect(site('plain').ssl).toMatchObject({ enabled: false, hasKey: false });
  });

  it('answers 404 for another service’s site, unknown ids and parking services', async () => {
    const mine = (await create({ subDomain: 'mine', folder: 'mine' })).body.data.subdomain;
    expect((await api.get(`/service/${other}/subdomain/${mine.id}/`, owner)).status).toBe(404);
    expect((await api.post(`/service/${other}/subdomain/${mine.id}/save/`, owner, { folder: 'x' })).status).toBe(404);
    expect((await api.get(`/service/${other}/subdomain/${mine.id}/delete/`, owner)).status).toBe(404);
    expect((await api.get(`/service/${service}/subdomain/999999/`, owner)).status).toBe(404);
    expect((await api.get(`/service/${service}/subdomain/abc/`, owner)).status).toBe(404);
    expect((await api.get(`/service/${parking}/subdomain/list/`, owner)).status).toBe(404);
    expect((await create({ subDomain: 'p', folder: 'p' }, owner, parking)).status).toBe(404);
    const stranger = await createAccount(ctx.store, { users: { eve: 'all=write' }, items: [{ reference: 'eve.test', service: 'normal' }] });
    expect((await api.get(`/service/${service}/subdomain/list/`, await stranger.as('eve'))).status).toBe(404);
  });

  it('lets readers see but not change, and hides the area from users without it', async () => {
    expect((await create({ subDomain: 'ro', folder: 'ro' }, reader)).status).toBe(403);
    const site = (await api.get(`/service/${service}/subdomain/list/`, reader)).body.data.subdomains[0];
    expect((await api.post(`/service/${service}/subdomain/${site.id}/save/`, reader, { folder: 'x' })).status).toBe(403);
    expect((await api.get(`/service/${service}/subdomain/${site.id}/delete/`, reader)).status).toBe(403);
    const nosites = await account.as('nosites');
    expect((await api.get(`/service/${service}/subdomain/list/`, nosites)).status).toBe(404);
  });

  it('needs a session and the CSRF header', async () => {
    expect((await api.get(`/service/${service}/subdomain/list/`, { 'x-dd-request': '1' })).status).toBe(401);
    const { 'x-dd-request': _, ...noHeader } = owner;
    expect((await api.get(`/service/${service}/subdomain/list/`, noHeader)).status).toBe(403);
  });
});
