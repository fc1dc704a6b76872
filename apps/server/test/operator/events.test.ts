import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { WEBHOOK_EVENTS } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { pollRegistry } from '../../src/modules/domain/poll.ts';
import { claimWarnings } from '../../src/modules/expiry/warnings.ts';
import { queueDueTerminations } from '../../src/modules/operator/termination.ts';
import { measureUsage } from '../../src/modules/service/usage.ts';
import { ISSUE_JOB } from '../../src/modules/sites/acme/issue.ts';
import { renewDue as renewCertificates } from '../../src/modules/sites/acme/renewal.ts';
import { type DomainTest, openDomainTest, whileApplying } from '../domain/helpers.ts';
import { describeStores } from '../stores.ts';
import { call, operatorToken } from './helpers.ts';
import { close, listen, receiver, verify } from './receiver.ts';

const DAY = 86_400;
const EN = { 'accept-language': 'en' };
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const nowSeconds = () => Math.floor(Date.now() / 1000);

/**
 * Every webhook event from where the thing it reports happens, each delivered to a receiver on
 * loopback that checks its signature. The domains live at the test registry over EPP, with a
 * second registrar account there to ask for a transfer.
 */
describeStores('the webhook events where their things happen on %s', (kind) => {
  let t: DomainTest;
  let token: string;
  let secret: string;
  const hook = receiver([]);
  // Applied meanwhile as the server's worker would: a renewal waits for its registry change.
  const op = (p: string, body: unknown, headers: Record<string, string> = {}) =>
    whileApplying(t.ctx.app.runtime.outbox, call(t.ctx.app, 'POST', p, token, body, { ...EN, ...headers }));

  /** The deliveries of `event` received so far, each checked against its signature. */
  async function delivered(event: string) {
    await t.ctx.app.runtime.outbox.drain();
    const mine = hook.received.filter((r) => r.headers['atalaya-event'] === event);
    for (const r of mine) expect(verify(secret, r.headers['atalaya-signature'] as string, r.body)).toBe(true);
    return mine.map((r) => JSON.parse(r.body).data as Record<string, unknown>);
  }

  beforeAll(async () => {
    t = await openDomainTest(kind, 'epp');
    token = await operatorToken(t.ctx);
    const port = await listen(hook.server);
    const created = await op('webhooks/create/', { url: `http://127.0.0.1:${port}/hook`, events: [...WEBHOOK_EVENTS] });
    expect(created.status).toBe(200);
    secret = created.body.data.secret;
    for (const reference of ['x.es', 'y.com', 'z.eu']) await t.get(`/domain/${t.id(reference)}/`); // the screen's first read (openDomainTest registered it, decision 051)
  });
  afterAll(async () => {
    await close(hook.server);
    await t.close();
  });

  it('renews a domain over the operator API from the expiry the billing system knows: billed once, domain.renewed sent', async () => {
    const id = t.id('y.com');
    const before = (await t.ctx.app.runtime.drivers.registry.info(id))!;
    const body = { name: 'y.com', years: 2, curExpDate: day(before.expireAt) };
    const res = await op('domain/renew/', body, { 'idempotency-key': 'invoice-9-renew' });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id, name: 'y.com', expireAt: expect.any(Number) });
    expect(res.body.data.expireAt - before.expireAt).toBeGreaterThanOrEqual(730 * DAY);
    expect(res.body.data.expireAt - before.expireAt).toBeLessThanOrEqual(731 * DAY);
    expect(t.registry!.state.data.domains['y.com'].exDate.slice(0, 10)).toBe(day(res.body.data.expireAt));
    // A retry with the key gets the first answer; one without it finds the new expiry and is refused.
    const replay = await op('domain/renew/', body, { 'idempotency-key': 'invoice-9-renew' });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data).toEqual(res.body.data);
    const stale = await op('domain/renew/', body);
    expect(stale.status).toBe(422);
    expect(stale.errors).toEqual([
      `The domain y.com no longer expires on ${body.curExpDate}: it was renewed already or that is not its date`,
    ]);
    const billed = await t.ctx.store
      .selectFrom('billing_event')
      .selectAll()
      .where('item_id', '=', id)
      .where('action', '=', 'renew')
      .execute();
    expect(billed).toMatchObject([{ years: 2, from_date: body.curExpDate, actor: expect.stringMatching(/^operator:\d+$/) }]);
    const events = await delivered('domain.renewed');
    expect(events).toEqual([
      { name: 'y.com', years: 2, expireAt: res.body.data.expireAt, actor: billed[0]!.actor, at: expect.any(Number) },
    ]);
  });

  it('refuses to renew an unknown domain, a period out of range, and for a token without the domains scope', async () => {
    const unknown = await op('domain/renew/', { name: 'nadie.com', curExpDate: '2030-01-01' });
    expect(unknown.status).toBe(422);
    expect(unknown.errors).toEqual(['The domain nadie.com is not on this panel']);
    expect((await op('domain/renew/', { name: 'y.com', years: 11, curExpDate: '2030-01-01' })).status).toBe(400);
    const provisionOnly = await operatorToken(t.ctx, ['provision']);
    const res = await call(t.ctx.app, 'POST', 'domain/renew/', provisionOnly, { name: 'y.com', curExpDate: '2030-01-01' }, EN);
    expect(res.status).toBe(403);
  });

  it('sends domain.restored when a domain comes back from redemption', async () => {
    const id = t.id('z.eu');
    const expired = nowSeconds() - 50 * DAY;
    t.registry!.state.data.domains['z.eu'].exDate = new Date(expired * 1000).toISOString();
    t.registry!.tick();
    await t.ctx.store.updateTable('domain').set({ expire_at: expired, updated_at: nowSeconds() }).where('item_id', '=', id).execute();
    const res = await t.post(`/domain/${id}/restore/`, {});
    expect(res.status).toBe(200);
    expect(await delivered('domain.restored')).toEqual([
      { name: 'z.eu', expireAt: res.body.data.domain.expireTS, actor: expect.stringMatching(/^user:/), at: expect.any(Number) },
    ]);
  });

  it('sends domain.expiring with the expiry warnings, once per offset', async () => {
    const id = t.id('x.es');
    const expireAt = Number(
      (await t.ctx.store.selectFrom('domain').select('expire_at').where('item_id', '=', id).executeTakeFirstOrThrow()).expire_at,
    );
    const warn = (at: number) => t.ctx.store.transaction().execute((trx) => claimWarnings(trx, t.ctx.config, at));
    await warn(expireAt - 5 * DAY);
    await warn(expireAt - 5 * DAY + 3600);
    const events = (await delivered('domain.expiring')).filter((e) => e.name === 'x.es');
    expect(events).toEqual([{ name: 'x.es', expireAt, days: 7, at: expireAt - 5 * DAY }]);
  });

  it('sends domain.transferred when the registry tells of a transfer another registrar asked for', async () => {
    const id = t.id('y.com');
    const authInfo =
      (await t.ctx.app.runtime.drivers.registry.authInfo(id)) ?? (await t.ctx.app.runtime.drivers.registry.createAuthInfo(id));
    const asked = t.registry!.transferAs('registrar-b', 'y.com', 'request', authInfo);
    expect(asked.code).toBe(1001);
    await pollRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry);
    expect(await delivered('domain.transferred')).toEqual([
      { name: 'y.com', status: 'pending', requestedBy: 'registrar-b', at: expect.any(Number) },
    ]);
  });

  it('sends certificate.renewal_failing when a renewal starts again after a failed one, not on a first attempt', async () => {
    const service = t.id('x.es');
    const site = (name: string, failures: number) =>
      t.ctx.store
        .insertInto('site')
        .values({
          service_id: service,
          name,
          folder: name,
          cert_source: 'acme',
          acme_enabled: 1,
          acme_failures: failures,
          acme_error: failures ? JSON.stringify({ key: 'sites.acme_unreachable', params: {} }) : null,
          acme_renew_at: nowSeconds() - 60,
          created_at: nowSeconds(),
          updated_at: nowSeconds(),
        })
        .execute();
    await site('tienda', 2);
    await site('blog', 0);
    const started = await t.ctx.store.transaction().execute((trx) => renewCertificates(trx));
    expect(started).toHaveLength(2);
    // No ACME server here: the issuances themselves are not this test's.
    await t.ctx.store.deleteFrom('job').where('kind', '=', ISSUE_JOB).execute();
    expect(await delivered('certificate.renewal_failing')).toEqual([
      { reference: 'x.es', host: 'tienda.x.es', failures: 2, error: 'sites.acme_unreachable', at: expect.any(Number) },
    ]);
  });

  it('sends quota.nearly_full when a measurement crosses nine tenths of the web space, once', async () => {
    const id = t.id('x.es');
    await t.ctx.store.updateTable('service').set({ limit_space_web: 10_000 }).where('item_id', '=', id).execute();
    const root = path.join(t.ctx.config.dataDir, 'www', 'x.es');
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, 'small.html'), 'x'.repeat(100));
    const measure = () => measureUsage(t.ctx.app.runtime, id, (reference) => path.join(t.ctx.config.dataDir, 'www', reference));
    await measure();
    expect(await delivered('quota.nearly_full')).toEqual([]);
    writeFileSync(path.join(root, 'big.bin'), Buffer.alloc(9_500));
    await measure();
    await measure();
    const events = await delivered('quota.nearly_full');
    expect(events).toEqual([{ reference: 'x.es', quota: 'web', used: expect.any(Number), limit: 10_000, at: expect.any(Number) }]);
    expect(events[0]!.used).toBeGreaterThanOrEqual(9_000);
  });

  it('sends service.suspended and service.terminated when the operator ends an item', async () => {
    const res = await op('item/delete/', { realm: t.account.realm, reference: 'm.com' });
    expect(res.status).toBe(200);
    await t.ctx.store.transaction().execute((trx) => queueDueTerminations(trx, res.body.data.terminateAt));
    expect(await delivered('service.suspended')).toEqual([{ realm: t.account.realm, reference: 'm.com', at: expect.any(Number) }]);
    expect(await delivered('service.terminated')).toEqual([{ realm: t.account.realm, reference: 'm.com', at: expect.any(Number) }]);
  });
});
