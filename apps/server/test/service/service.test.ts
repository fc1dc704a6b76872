import type { ServiceView } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localWebDriver } from '../../src/drivers/web/local.ts';
import { readConstructorToken } from '../../src/modules/service/service/constructor.ts';
import { enqueue } from '../../src/outbox/outbox.ts';
import { createSecrets, loadSecretKey } from '../../src/secrets.ts';
import { now } from '../../src/store/db.ts';
import { createAccount } from '../fixtures.ts';
import { describeStores } from '../stores.ts';
import { api, localObject, openServiceSuite, type ServiceSuite } from './helpers.ts';

type S = { service: ServiceView };

describeStores('the service main view on %s', (kind) => {
  let { ctx, acc, id } = {} as ServiceSuite;
  beforeAll(async () => ({ ctx, acc, id } = await openServiceSuite(kind)));
  afterAll(() => ctx.close());

  it('answers the service with usage, PHP options from its minimum, server names and permissions', async () => {
    await ctx.store
      .updateTable('service')
      .set({ php_min_version: '7.4', used_space_web: 1536 * 1024 * 1024 })
      .where('item_id', '=', id)
      .execute();
    const { status, body } = await api<S>(ctx, acc, 'reader', `/service/${id}/`);
    expect(status).toBe(200);
    const s = body.data.service;
    expect(s).toMatchObject({
      id,
      frontendDbID: id,
      reference: 'tienda.test',
      isRedirAndParking: false,
      phpversion: 'default',
      phpminversion: '7.4',
    });
    expect(s.phpOptions).toEqual(['default', '7.4', '8.0', '8.1', '8.2', '8.3', '8.4']);
    expect(s.usage.spaceWeb).toEqual({ used: 1536 * 1024 * 1024, limit: 10 * 1024 ** 3 });
    expect(s.usage.BBDD).toEqual({ used: 0, limit: 5 });
    expect(s).toMatchObject({ ftpServer: 'ftp.tienda.test', databaseServer: 'bbdd.tienda.test', state: 'ready' });
    expect(s.permissions.service).toBe('read');
  });

  it('names the node host as the FTP and database server of a service placed on a node, and a change waiting for it', async () => {
    const t = now();
    const node = await ctx.store
      .insertInto('node')
      .values({ name: 'web7', host: 'web7.hosting.test', roles: 'web', state: 'active', created_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    await ctx.store.updateTable('item').set({ node_id: node.id }).where('id', '=', id).execute();
    const before = await ctx.store.selectFrom('service').select('job_id').where('item_id', '=', id).executeTakeFirstOrThrow();
    const job = await enqueue(ctx.store, 'service.web.apply', { itemId: id }, id);
    await ctx.store.updateTable('service').set({ job_id: job }).where('item_id', '=', id).execute();
    try {
      const { body } = await api<S>(ctx, acc, 'reader', `/service/${id}/`);
      expect(body.data.service).toMatchObject({
        ftpServer: 'web7.hosting.test',
        databaseServer: 'web7.hosting.test',
        state: 'pending',
        waitingFor: 'web7',
      });
    } finally {
      await ctx.store.deleteFrom('job').where('id', '=', job).execute();
      await ctx.store.updateTable('service').set({ job_id: before.job_id }).where('item_id', '=', id).execute();
      await ctx.store.updateTable('item').set({ node_id: null }).where('id', '=', id).execute();
    }
  });

  it('flags a redirect-and-parking service', async () => {
    const { body } = await api<S>(ctx, acc, 'admin', `/service/${acc.items['aparcado.test']}/`);
    expect(body.data.service.isRedirAndParking).toBe(true);
  });

  it('answers 404 to a user without any service permission, for unknown ids and for items of another realm', async () => {
    expect((await api(ctx, acc, 'nothing', `/service/${id}/`)).status).toBe(404);
    expect((await api(ctx, acc, 'mailonly', `/service/${id}/`)).status).toBe(404);
    expect((await api(ctx, acc, 'admin', '/service/99999999/')).status).toBe(404);
    expect((await api(ctx, acc, 'admin', '/service/abc/')).status).toBe(404);
    // Another realm (a name has one owner, so its service has a name of its own).
    const other = await createAccount(ctx.store, {
      users: { admin: 'all=write' },
      items: [{ reference: 'ajena.test', service: 'normal' }],
    });
    expect((await api(ctx, other, 'admin', `/service/${id}/`)).status).toBe(404);
  });

  it('answers 404 for every hosting area of an item that is a domain only, even to a user with every right', async () => {
    const solo = await createAccount(ctx.store, { users: { ana: 'all=write' }, items: [{ reference: 'solo.es', domain: true }] });
    const headers = await solo.as('ana');
    const id = solo.items['solo.es'];
    for (const area of [
      'subdomain/list/',
      'redirection/list/',
      'dns/list/',
      'ftp/list/',
      'ddbb/list/',
      'logerror/',
      'webconstructor/',
      '',
    ]) {
      const res = await ctx.app.inject({ method: 'GET', url: `/p247/service/${id}/${area}`, headers });
      expect(res.statusCode, area).toBe(404);
    }
  });

  it('lets a user who sees only FTP load the service (the wrapper needs its permissions)', async () => {
    const { status, body } = await api<S>(ctx, acc, 'ftponly', `/service/${id}/`);
    expect(status).toBe(200);
    expect(body.data.service.permissions.service_ftp).toBe('write');
  });

  it('toggles parking: pending until the outbox applies it, then ready on the web backend', async () => {
    const on = await api<S>(ctx, acc, 'admin', `/service/${id}/parking/active/`);
    expect(on.status).toBe(200);
    expect(on.body.data.service).toMatchObject({ parkingActive: true, state: 'pending' });
    expect(on.body.system.job).toBe(on.body.data.service.job);
    expect(on.body.system.info[0]).toBe('Aparcamiento activado');
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'web', 'tienda.test')).toMatchObject({ parkingActive: true, webRoot: '/var/www/tienda.test' });
    expect((await api<S>(ctx, acc, 'admin', `/service/${id}/`)).body.data.service.state).toBe('ready');
    const off = await api<S>(ctx, acc, 'admin', `/service/${id}/parking/disable/`);
    expect(off.body.data.service.parkingActive).toBe(false);
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'web', 'tienda.test')).toMatchObject({ parkingActive: false });
  });

  it('refuses parking changes without parking write (403) and hides them without visibility (404)', async () => {
    expect((await api(ctx, acc, 'noparking', `/service/${id}/parking/active/`)).status).toBe(403);
    expect((await api(ctx, acc, 'reader', `/service/${id}/parking/disable/`)).status).toBe(403);
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/parking/active/`)).status).toBe(404);
  });

  it('changes PHP to an offered version and applies it', async () => {
    const { status, body } = await api<S>(ctx, acc, 'admin', `/service/${id}/php/`, { phpVersion: '8.3' });
    expect(status).toBe(200);
    expect(body.data.service.phpversion).toBe('8.3');
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'web', 'tienda.test')).toMatchObject({ phpVersion: '8.3' });
    await api(ctx, acc, 'admin', `/service/${id}/php/`, { phpVersion: 'default' });
    await ctx.app.runtime.outbox.drain();
    expect(await localObject(ctx, 'web', 'tienda.test')).toMatchObject({ phpVersion: ctx.config.hosting.defaultPhpVersion });
  });

  it('refuses PHP below the minimum, unknown versions, parking services and read-only users', async () => {
    const low = await api(ctx, acc, 'admin', `/service/${id}/php/`, { phpVersion: '7.0' });
    expect(low.status).toBe(400);
    expect(low.body.system.inputs).toEqual(['phpVersion']);
    expect(low.body.system.errors[0]).toBe('Versión de PHP no disponible para este servicio');
    expect((await api(ctx, acc, 'admin', `/service/${id}/php/`, { phpVersion: '9.9' })).status).toBe(400);
    const parking = await api(ctx, acc, 'admin', `/service/${acc.items['aparcado.test']}/php/`, { phpVersion: '8.2' });
    expect(parking.status).toBe(400);
    expect((await api(ctx, acc, 'reader', `/service/${id}/php/`, { phpVersion: '8.2' })).status).toBe(403);
  });

  it('shows the error log newest first', async () => {
    await ctx.app.runtime.outbox.drain();
    const web = localWebDriver(ctx.store, ctx.config.dataDir);
    // A site whose job has not run takes no lines, and says so instead of failing the demo's start.
    expect(await web.appendErrorLog('nowhere.test', [{ ts: 1, level: 'error', message: 'lost' }])).toBe(false);
    expect(await web.errorLog('nowhere.test', 10)).toEqual([]);
    await web.appendErrorLog('tienda.test', [
      { ts: 100, level: 'error', message: 'first' },
      { ts: 300, level: 'warn', message: 'third' },
      { ts: 200, level: 'error', message: 'second' },
    ]);
    const { body } = await api<{ logs: { message: string }[] }>(ctx, acc, 'reader', `/service/${id}/logerror/`);
    expect(body.data.logs.map((l) => l.message)).toEqual(['third', 'second', 'first']);
    expect((await api(ctx, acc, 'ftponly', `/service/${id}/logerror/`)).status).toBe(404);
  });

  it('answers the web constructor folder and a short-lived signed sign-in URL', async () => {
    expect((await api(ctx, acc, 'reader', `/service/${id}/webconstructor/`)).body.data).toEqual({ folder: '*' });
    const { body } = await api<{ url: string }>(ctx, acc, 'admin', `/service/${id}/webcontructorlogin/`, { subdomain: '*' });
    const url = new URL(body.data.url);
    expect(url.origin + url.pathname).toBe(ctx.config.hosting.webConstructorUrl);
    const secrets = createSecrets(loadSecretKey(ctx.config.dataDir));
    const token = url.searchParams.get('token')!;
    expect(readConstructorToken(secrets, token)).toMatchObject({ service: id, reference: 'tienda.test', subdomain: '*' });
    expect(readConstructorToken(secrets, token, Date.now() + 301_000)).toBeNull();
    expect(readConstructorToken(secrets, `${token.slice(0, -2)}AA`)).toBeNull();
    expect((await api(ctx, acc, 'reader', `/service/${id}/webcontructorlogin/`, { subdomain: '*' })).status).toBe(403);
    expect((await api(ctx, acc, 'admin', `/service/${id}/webcontructorlogin/`, { subdomain: '../x' })).status).toBe(400);
  });

  it('refuses calls without a session and without the CSRF header', async () => {
    expect((await ctx.app.inject({ url: `/p247/service/${id}/` })).statusCode).toBe(403);
    const noSession = await ctx.app.inject({ url: `/p247/service/${id}/`, headers: { 'x-dd-request': '1' } });
    expect(noSession.json().system.statusCode).toBe(101);
  });
});
