import { afterAll, beforeAll, expect, it } from 'vitest';
import { readLocalSite } from '../../src/drivers/sites/local.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { caller, type Headers, SITES_ITEMS } from './helpers.ts';

describeStores('redirections on %s', (kind) => {
  let ctx: TestContext;
  let account: Account;
  let owner: Headers;
  let service: number;
  let other: number;
  let parking: number;
  let siteId: number;
  const api = caller(() => ctx);

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    account = await createAccount(ctx.store, {
      items: SITES_ITEMS,
      users: {
        owner: 'all=write',
        reader: 'all=read',
        sitesonly: 'all=write,service_redirects=read',
        none: 'all=write,service_redirects=disabled',
      },
    });
    owner = await account.as('owner');
    service = account.items['tienda.test'];
    other = account.items['otra.test'];
    parking = account.items['aparcado.test'];
    siteId = (await api.post(`/service/${service}/subdomain/create/`, owner, { subDomain: 'www', folder: 'www' })).body.data.subdomain.id;
  });
  afterAll(() => ctx.close());

  const create = (fields: Record<string, string>, headers = owner, id = service) =>
    api.post(`/service/${id}/redirection/create/`, headers, fields);

  it('creates 301, 302 and frame redirections with a normalised origin and applies them with the site', async () => {
    const r301 = await create({ subDomain: 'www', recurso: 'old//page/./', urlRedir: 'https://nuevo.test/page', redirType: '301' });
    expect(r301.status, JSON.stringify(r301.body.system)).toBe(200);
    expect(r301.body.data.redirection).toMatchObject({
      recurso: '/old/page',
      origin: 'www.tienda.test/old/page',
      url: 'https://nuevo.test/page',
      redirType: '301',
      subdominio: 'www',
      iframeTitle: '',
    });
    expect(
      (await create({ subDomain: 'www.tienda.test', recurso: '', urlRedir: 'http://temp.test/', redirType: '302' })).body.data.redirection
        .recurso,
    ).toBe('/');
    const frame = await create({
      subDomain: 'www',
      recurso: '/promo',
      urlRedir: 'https://landing.test/',
      redirType: 'frame',
      iframeTitle: '<b>Oferta</b>',
      iframeDescription: 'Descripción',
      iframeKeywords: 'a, b',
    });
    expect(frame.body.data.redirection).toMatchObject({ redirType: 'frame', iframeTitle: '<b>Oferta</b>', iframeKeywords: 'a, b' });
    await ctx.app.runtime.outbox.drain();
    const applied = readLocalSite(ctx.config.dataDir, `site-${siteId}`);
    expect(applied?.redirections.map((r) => [r.origin, r.kind])).toEqual([
      ['/old/page', '301'],
      ['/', '302'],
      ['/promo', 'frame'],
    ]);
    expect(applied?.redirections[2].frame).toEqual({ title: '<b>Oferta</b>', description: 'Descripción', keywords: 'a, b' });
    const list = await api.get(`/service/${service}/redirection/list/`, await account.as('reader'));
    expect(list.body.data.redirection).toHaveLength(3);
    const sites = (await api.get(`/service/${service}/subdomain/list/`, owner)).body.data.subdomains;
    expect(sites[0].redirections).toBe(3);
  });

  it('refuses targets that are not http(s), bad origins, duplicates, unknown types and long frame texts', async () => {
    for (const url of [
      'javascript:alert(1)',
      'ftp://x.test/',
      '//x.test',
      'https://',
      'https://user:pw@x.test/',
      'data:text/html,hi',
      'https://x .test',
    ]) {
      const res = await create({ subDomain: 'www', recurso: '/u', urlRedir: url, redirType: '301' });
      expect(res.status, url).toBe(400);
      expect(res.body.system.inputs).toEqual(['urlRedir']);
    }
    expect(
      (await create({ subDomain: 'www', recurso: '/../x', urlRedir: 'https://a.test/', redirType: '301' })).body.system.inputs,
    ).toEqual(['recurso']);
    expect(
      (await create({ subDomain: 'www', recurso: '/a?b=1', urlRedir: 'https://a.test/', redirType: '301' })).body.system.inputs,
    ).toEqual(['recurso']);
    expect(
      (await create({ subDomain: 'www', recurso: '/old/page/', urlRedir: 'https://a.test/', redirType: '302' })).body.system.inputs,
    ).toEqual(['recurso']);
    // Only what the web server can match: refused here rather than left to break the host's config.
    for (const recurso of ['/página', '/a%20b', '/promo(2024)', `/${'a'.repeat(255)}`]) {
      expect(
        (await create({ subDomain: 'www', recurso, urlRedir: 'https://a.test/', redirType: '301' })).body.system.inputs,
        recurso,
      ).toEqual(['recurso']);
    }
    expect((await create({ subDomain: 'www', recurso: '/t', urlRedir: 'https://a.test/', redirType: '303' })).body.system.inputs).toEqual([
      'redirType',
    ]);
    expect((await create({ subDomain: 'www', recurso: '/t', urlRedir: '', redirType: '301' })).body.system.inputs).toEqual(['urlRedir']);
    const long = await create({
      subDomain: 'www',
      recurso: '/t',
      urlRedir: 'https://a.test/',
      redirType: 'frame',
      iframeTitle: 'x'.repeat(201),
    });
    expect(long.body.system.inputs).toEqual(['iframeTitle']);
    expect((await create({ subDomain: 'nope', recurso: '/t', urlRedir: 'https://a.test/', redirType: '301' })).body.system.inputs).toEqual([
      'subDomain',
    ]);
  });

  it('keeps frame texts only for frames', async () => {
    const res = await create({
      subDomain: 'www',
      recurso: '/plain',
      urlRedir: 'https://a.test/',
      redirType: '301',
      iframeTitle: 'ignored',
    });
    expect(res.body.data.redirection.iframeTitle).toBe('');
  });

  it('saves and deletes a redirection', async () => {
    const created = (await create({ subDomain: 'www', recurso: '/edit', urlRedir: 'https://a.test/', redirType: '301' })).body.data
      .redirection;
    const saved = await api.post(`/service/${service}/redirection/${created.id}/save/`, owner, {
      urlRedir: 'https://b.test/x',
      redirType: 'frame',
      iframeTitle: 'T',
    });
    expect(saved.body.data.redirection).toMatchObject({ url: 'https://b.test/x', redirType: 'frame', iframeTitle: 'T', recurso: '/edit' });
    expect((await api.get(`/service/${service}/redirection/${created.id}/`, owner)).body.data.redirection.url).toBe('https://b.test/x');
    expect((await api.get(`/service/${service}/redirection/${created.id}/delete/`, owner)).status).toBe(200);
    expect((await api.get(`/service/${service}/redirection/${created.id}/`, owner)).status).toBe(404);
  });

  it('puts a parking service’s redirections on its bare domain', async () => {
    const res = await create({ subDomain: '', recurso: '/', urlRedir: 'https://nueva-web.test/', redirType: '301' }, owner, parking);
    expect(res.body.data.redirection).toMatchObject({ subdominio: '', origin: 'aparcado.test/' });
    expect(
      (await create({ subDomain: 'www', recurso: '/x', urlRedir: 'https://a.test/', redirType: '301' }, owner, parking)).body.system.inputs,
    ).toEqual(['subDomain']);
    await ctx.app.runtime.outbox.drain();
    expect(readLocalSite(ctx.config.dataDir, `apex-${parking}`)).toMatchObject({
      host: 'aparcado.test',
      folder: null,
      service: { kind: 'parking' },
    });
    expect((await create({ subDomain: '', recurso: '/x', urlRedir: 'https://a.test/', redirType: '301' })).body.system.inputs).toEqual([
      'subDomain',
    ]);
  });

  it('answers 404 for another service’s redirection', async () => {
    const mine = (await api.get(`/service/${service}/redirection/list/`, owner)).body.data.redirection[0];
    expect((await api.get(`/service/${other}/redirection/${mine.id}/`, owner)).status).toBe(404);
    expect(
      (await api.post(`/service/${other}/redirection/${mine.id}/save/`, owner, { urlRedir: 'https://a.test/', redirType: '301' })).status,
    ).toBe(404);
    expect((await api.get(`/service/${other}/redirection/${mine.id}/delete/`, owner)).status).toBe(404);
    expect((await api.get(`/service/${service}/redirection/0/`, owner)).status).toBe(404);
  });

  it('refuses every change without write on service_redirects, and hides the list without read', async () => {
    const mine = (await api.get(`/service/${service}/redirection/list/`, owner)).body.data.redirection[0];
    for (const user of ['reader', 'sitesonly']) {
      const headers = await account.as(user);
      expect((await api.get(`/service/${service}/redirection/list/`, headers)).status).toBe(200);
      expect((await create({ subDomain: 'www', recurso: '/n', urlRedir: 'https://a.test/', redirType: '301' }, headers)).status).toBe(403);
      expect(
        (await api.post(`/service/${service}/redirection/${mine.id}/save/`, headers, { urlRedir: 'https://a.test/', redirType: '301' }))
          .status,
      ).toBe(403);
      expect((await api.get(`/service/${service}/redirection/${mine.id}/delete/`, headers)).status).toBe(403);
    }
    expect((await api.get(`/service/${service}/redirection/list/`, await account.as('none'))).status).toBe(404);
  });

  it('deletes a site’s redirections with the site', async () => {
    const site = (await api.post(`/service/${service}/subdomain/create/`, owner, { subDomain: 'tmp', folder: 'tmp' })).body.data.subdomain;
    const r = (await create({ subDomain: 'tmp', recurso: '/', urlRedir: 'https://a.test/', redirType: '301' })).body.data.redirection;
    await api.get(`/service/${service}/subdomain/${site.id}/delete/`, owner);
    expect((await api.get(`/service/${service}/redirection/${r.id}/`, owner)).status).toBe(404);
  });
});
