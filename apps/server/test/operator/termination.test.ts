import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueDueTerminations, TERMINATE } from '../../src/modules/operator/termination.ts';
import { now } from '../../src/store/db.ts';
import { send } from '../fixtures.ts';
import { api, openServiceSuite, type ServiceSuite } from '../service/helpers.ts';
import { describeStores } from '../stores.ts';
import { call, operatorToken } from './helpers.ts';

const EN = { 'accept-language': 'en' };
const DAY = 86_400;

describeStores('the termination of items and realms over the operator API on %s', (kind) => {
  let suite: ServiceSuite;
  let token: string;
  const op = (p: string, body: unknown, headers: Record<string, string> = {}) =>
    call(suite.ctx.app, 'POST', p, token, body, { ...EN, ...headers });
  const runTerminations = (at: number) => suite.ctx.store.transaction().execute((trx) => queueDueTerminations(trx, at));
  const backendKeys = async (driver: string) =>
    (await suite.ctx.store.selectFrom('local_backend').select('key').where('driver', '=', driver).execute()).map((r) => r.key);

  beforeAll(async () => {
    suite = await openServiceSuite(kind);
    token = await operatorToken(suite.ctx);
  });
  afterAll(() => suite.ctx.close());

  it('cleans every backend of an item in order through the outbox once its grace period is over, then deletes it', async () => {
    const { ctx, acc, id } = suite;
    // Something on each backend: a site, a mailbox, an alias, an FTP user, a database, a DNS record.
    const writes = [
      api(ctx, acc, 'admin', `/service/${id}/subdomain/create/`, { subDomain: 'blog', folder: '/blog', SSLActive: '0' }),
      api(ctx, acc, 'admin', `/service/${id}/correo/create/`, { name: 'ana', password: 'Secr3t-pass!' }),
      api(ctx, acc, 'admin', `/service/${id}/alias/create/`, { name: 'ventas', target: 'a@b.test' }),
      api(ctx, acc, 'admin', `/service/${id}/ftp/create/`, { ftpUser: 'subida', password: 'Ftp-pass-123', folder: '/' }),
      api(ctx, acc, 'admin', `/service/${id}/ddbb/create/`, { password: 'Db-pass-1234' }),
    ];
    for (const write of writes) expect((await write).status).toBe(200);
    const dns = await send(ctx.app, 'POST', `/service/${id}/dns/create/`, await acc.as('admin'), {
      type: 'A',
      zona: 'web',
      value: '203.0.113.7',
      ttl: 600,
    });
    expect(dns.status).toBe(200);
    await ctx.app.runtime.outbox.drain();
    expect(await backendKeys('mail.box')).toContain('ana@tienda.test');
    expect(await backendKeys('ftp.user')).toHaveLength(1);
    expect(await backendKeys('databases')).toHaveLength(1);
    const sitesDir = path.join(ctx.config.dataDir, 'sites');
    expect(readdirSync(sitesDir).length).toBeGreaterThan(0);
    const zone = await ctx.store.selectFrom('dns_zone').select('served').where('item_id', '=', id).executeTakeFirstOrThrow();
    expect(zone.served).not.toBeNull();
    const firstJob = Number(
      (
        await ctx.store
          .selectFrom('job')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirstOrThrow()
      ).id,
    );

    const res = await op('item/delete/', { realm: acc.realm, reference: 'tienda.test', graceDays: 3 });
    expect(res.status).toBe(200);
    const terminateAt = res.body.data.terminateAt;
    expect(terminateAt).toBeGreaterThanOrEqual(now() + 3 * DAY - 5);
    expect(res.body.data).toEqual({ name: 'tienda.test', terminateAt });
    // Suspended at once; nothing is cleaned before the day.
    const item = await ctx.store.selectFrom('item').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(item.suspended).toBe(1);
    await ctx.app.runtime.outbox.drain();
    const web = await ctx.store
      .selectFrom('local_backend')
      .select('data')
      .where('driver', '=', 'web')
      .where('key', '=', 'tienda.test')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(web.data)).toMatchObject({ suspended: true });
    expect(await runTerminations(terminateAt - 1)).toEqual([]);
    // Asked again, the date stays the first one.
    const again = await op('item/delete/', { realm: acc.realm, reference: 'tienda.test', graceDays: 30 });
    expect(again.body.data.terminateAt).toBe(terminateAt);

    expect(await runTerminations(terminateAt)).toEqual([id]);
    expect(await runTerminations(terminateAt + 60)).toEqual([]);
    const queued = await ctx.store
      .selectFrom('job')
      .select(['id', 'kind'])
      .where('item_id', '=', id)
      .where('id', '>', firstJob)
      .where('kind', 'not in', ['service.web.apply', 'sites.apply'])
      .orderBy('id')
      .execute();
    expect(queued.map((j) => j.kind)).toEqual([
      TERMINATE.sites,
      'service.ftp.apply',
      'service.database.apply',
      'service.alias.apply',
      'service.mailbox.apply',
      TERMINATE.mail,
      TERMINATE.dns,
      TERMINATE.web,
      TERMINATE.finish,
    ]);

    // Step by step: after the DNS step the zone is no longer served, while the item is still there.
    for (;;) {
      const job = await ctx.app.runtime.outbox.runOne();
      if (!job) break;
      if (job.kind === TERMINATE.dns) {
        const served = await ctx.store.selectFrom('dns_zone').select('served').where('item_id', '=', id).executeTakeFirstOrThrow();
        expect(served.served).toBeNull();
      }
    }
    const statuses = await ctx.store
      .selectFrom('job')
      .select('status')
      .where(
        'id',
        'in',
        queued.map((j) => j.id),
      )
      .execute();
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(['done']));
    expect(await backendKeys('mail.box')).not.toContain('ana@tienda.test');
    expect(await backendKeys('mail.alias')).not.toContain('ventas@tienda.test');
    expect(await backendKeys('mail.dkim')).not.toContain('tienda.test');
    expect(await backendKeys('ftp.user')).toEqual([]);
    expect(await backendKeys('databases')).toEqual([]);
    expect(await backendKeys('web')).not.toContain('tienda.test');
    expect(readdirSync(sitesDir).filter((f) => f.startsWith('site-'))).toEqual([]);
    expect(existsSync(path.join(ctx.config.dataDir, 'www', 'tienda.test'))).toBe(false);
    expect(await ctx.store.selectFrom('item').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    // Gone: asked again, it is an unknown item.
    const gone = await op('item/delete/', { realm: acc.realm, reference: 'tienda.test' });
    expect(gone.status).toBe(422);
    expect(gone.errors).toEqual([`Refused: No item "tienda.test" in realm "${acc.realm}"`]);
  });

  it('keeps the item when a removal failed: the last step fails rather than forget what is still on a server', async () => {
    const { ctx, acc } = suite;
    const other = acc.items['otra.test']!;
    expect(
      (await api(ctx, acc, 'admin', `/service/${other}/ftp/create/`, { ftpUser: 'resto', password: 'Ftp-pass-123', folder: '/' })).status,
    ).toBe(200);
    await ctx.app.runtime.outbox.drain();
    const res = await op('item/delete/', { realm: acc.realm, reference: 'otra.test' });
    expect(res.status).toBe(200);
    await runTerminations(res.body.data.terminateAt);
    // The FTP server refuses every removal.
    const ftp = ctx.app.runtime.drivers.ftp;
    const removeUser = ftp.removeUser;
    ftp.removeUser = async () => {
      throw new Error('pure-ftpd is down');
    };
    try {
      const finish = await ctx.store.selectFrom('item').select('terminate_job').where('id', '=', other).executeTakeFirstOrThrow();
      // Its retries made due at once, until the outbox gives up on it.
      for (let i = 0; i < 40; i++) {
        if (await ctx.app.runtime.outbox.runOne()) continue;
        const due = await ctx.store
          .updateTable('job')
          .set({ next_at: 0 })
          .where('item_id', '=', other)
          .where('status', '=', 'pending')
          .executeTakeFirst();
        if (Number(due.numUpdatedRows) === 0) break;
      }
      const last = await ctx.store
        .selectFrom('job')
        .select(['status', 'last_error'])
        .where('id', '=', finish.terminate_job!)
        .executeTakeFirstOrThrow();
      expect(last.last_error).toMatch(/ftp_user \d+ of otra\.test is still on its backend/);
      expect(await ctx.store.selectFrom('item').select('id').where('id', '=', other).executeTakeFirst()).toBeDefined();
    } finally {
      ftp.removeUser = removeUser;
    }
  });

  it('terminates a realm: suspended and signed out at once, its items cleaned on the day, then the realm itself goes', async () => {
    const { ctx, acc } = suite;
    const res = await op('realm/delete/', { realm: acc.realm, graceDays: 1 }, { 'idempotency-key': 'end-of-realm' });
    expect(res.status).toBe(200);
    const replay = await op('realm/delete/', { realm: acc.realm, graceDays: 1 }, { 'idempotency-key': 'end-of-realm' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data).toEqual(res.body.data);
    const realm = await ctx.store.selectFrom('realm').selectAll().where('name', '=', acc.realm).executeTakeFirstOrThrow();
    expect([realm.suspended, realm.disabled]).toEqual([1, 1]);
    const at = res.body.data.terminateAt;
    const items = await ctx.store.selectFrom('item').select(['id', 'terminate_at']).where('realm_id', '=', realm.id).execute();
    expect(items.length).toBeGreaterThan(0);
    // The failed item keeps its earlier date; the others take the realm's.
    for (const item of items) expect(Number(item.terminate_at)).toBeLessThanOrEqual(at);
    const queued = await runTerminations(at);
    expect(queued.length).toBeGreaterThan(0);
    await ctx.app.runtime.outbox.drain();
    // The item whose FTP removal failed keeps the realm until its retry is asked for.
    const failed = await ctx.store.selectFrom('job').select('id').where('status', '=', 'failed').execute();
    for (const job of failed) {
      await ctx.store.updateTable('job').set({ status: 'pending', attempts: 0, next_at: now() }).where('id', '=', job.id).execute();
    }
    await ctx.app.runtime.outbox.drain();
    expect(await ctx.store.selectFrom('item').select('id').where('realm_id', '=', realm.id).execute()).toEqual([]);
    await runTerminations(at);
    expect(await ctx.store.selectFrom('realm').select('id').where('id', '=', realm.id).executeTakeFirst()).toBeUndefined();
    expect(await ctx.store.selectFrom('user').select('id').where('realm_id', '=', realm.id).execute()).toEqual([]);
  });

  it('refuses a grace period out of range and an unknown realm, and unsuspending calls the termination off', async () => {
    const { ctx } = suite;
    const bad = await op('realm/delete/', { realm: 'nadie.test', graceDays: 366 });
    expect(bad.status).toBe(400);
    expect((await op('realm/delete/', { realm: 'nadie.test' })).status).toBe(422);
    expect((await op('realm/create/', { realm: 'vuelve.test' })).status).toBe(200);
    expect((await op('item/create/', { realm: 'vuelve.test', reference: 'vuelve.test', service: 'normal' })).status).toBe(200);
    const res = await op('realm/delete/', { realm: 'vuelve.test', graceDays: 10 });
    expect(res.status).toBe(200);
    expect((await op('realm/unsuspend/', { realm: 'vuelve.test' })).status).toBe(200);
    expect(await runTerminations(res.body.data.terminateAt + 1)).toEqual([]);
    const realm = await ctx.store.selectFrom('realm').selectAll().where('name', '=', 'vuelve.test').executeTakeFirstOrThrow();
    expect([realm.suspended, realm.disabled, realm.terminate_at]).toEqual([0, 0, null]);
  });

  it('refuses the termination calls to a token without the provision scope', async () => {
    const domainsOnly = await operatorToken(suite.ctx, ['domains']);
    const res = await call(suite.ctx.app, 'POST', 'item/delete/', domainsOnly, { realm: suite.acc.realm, reference: 'x.test' }, EN);
    expect(res.status).toBe(403);
    const realm = await call(suite.ctx.app, 'POST', 'realm/delete/', domainsOnly, { realm: suite.acc.realm }, EN);
    expect(realm.status).toBe(403);
  });
});
