import {
  ALL_ENDPOINTS,
  AREAS,
  AREAS_BY_KIND,
  type Area,
  DOMAIN_TOGGLES,
  type Endpoint,
  endpoints,
  isRawAnswer,
  type ListKind,
} from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { recordActivity } from '../../src/modules/activity/record.ts';
import { AREA_OF } from '../../src/modules/expiry/expiring.ts';
import { grant } from '../../src/modules/provisioning/accounts.ts';
import { JOB } from '../../src/modules/service/jobs.ts';
import { createToken } from '../../src/modules/token/tokens.ts';
import { now } from '../../src/store/db.ts';
import { login } from '../account/helpers.ts';
import { type Account, createAccount, type Fields, type Loose, send, TEST_PASSWORD } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

/**
 * The proof that a token sees only what its scope names, walked over the whole endpoint table: a
 * new call is walked as soon as it is declared. The token is scoped to area X on items A and C;
 * its user writes everything on A and B, and holds only domain areas on C. So B is outside the
 * token's items, C is inside them but visible to its user through other areas (Y) only, and on A
 * every area but X is Y. The token must get nothing of B, of C, of A's other areas, nor of the
 * account (the user's sign-ins, with their address).
 */
const X: Area = 'service_dnszone';
const REF = { a: 'alfa-walk.es', b: 'beta-walk.es', c: 'gamma-walk.es' };
/** The address of the user's own sign-in: account data that no token reads. */
const SIGN_IN_IP = '198.51.100.77';
const DAY = 86_400;

const keyOf = (e: Endpoint) => `${e.method} ${e.path}`;
const reachable = (e: Endpoint) => !('public' in e.permission) && !e.sessionOnly && !isOperatorCall(e);
/** The operator API takes operator tokens only: a customer token is refused there outright (decision 037). */
const isOperatorCall = (e: Endpoint) => 'operator' in e.permission;
/** The areas an item call declares. */
const areasOf = (e: Endpoint): readonly Area[] =>
  'area' in e.permission ? [e.permission.area] : 'anyOf' in e.permission ? e.permission.anyOf : [];
/**
 * A call on A that X alone opens: its entry names X as its one area. A call that may act on several
 * areas (`anyOf`) is walked with a child of another area, and the service's main view shows the
 * service as a whole: neither is in X's scope.
 */
const inScopeOnA = (e: Endpoint) => 'area' in e.permission && e.permission.area === X;

// Values a request field is tried with, in order, until its schema takes one.
const CANDIDATES = ['1', 'A', 'walk1', '600', '203.0.113.9', 'ns1.example.net', 'ana@example.com', 'Una-clave-larga-9', 'public_html'];
CANDIDATES.push('https://example.org/', 'ES', '+34.971123456', '2099-12-31', 'Texto', '0');

/** The options of an enum field, read from its JSON schema. */
function enumOf(field: z.ZodType): string[] {
  try {
    const json = z.toJSONSchema(field, { unrepresentable: 'any', io: 'input' }) as { enum?: unknown[] };
    return (json.enum ?? []).map(String);
  } catch {
    return [];
  }
}

/**
 * A valid request of a call, built from its schema: each required field with the first value it
 * takes. The call's body must pass its schema, or the walk would only see a 400 before the item is
 * opened. Null when no such request is found: the test names the call so that it gets one.
 */
function sampleOf(schema: z.ZodType | undefined): Fields | null {
  if (!schema) return {};
  const shape = (schema as z.ZodObject).shape as Record<string, z.ZodType> | undefined;
  if (!shape) return schema.safeParse({}).success ? {} : null;
  const fields: Fields = {};
  for (const [name, field] of Object.entries(shape)) {
    if (field.safeParse(undefined).success) continue;
    const values = [...enumOf(field), ...CANDIDATES];
    const value = values.find((v) => field.safeParse(v).success) ?? values.map((v) => [v]).find((v) => field.safeParse(v).success);
    if (value === undefined) return null;
    fields[name] = value;
  }
  return schema.safeParse(fields).success ? fields : null;
}

/** Requests the sampler cannot build (a field that depends on another one). */
const OWNER: Fields = {
  isOrg: '0',
  firstName: 'Ana',
  lastName: 'Walk',
  identNumber: '12345678Z',
  email: 'ana@example.com',
  phone: '+34.971123456',
  country: 'ES',
  state: 'Baleares',
  city: 'Palma',
  postalCode: '07001',
  address: 'Calle 1',
};
const SAMPLES: Record<string, Fields> = {
  'POST /domain/:id/dnsedit/': { 'default-ns': '1' },
  'POST /domain/:id/dnssec/create/': { type: 'digest', keytag: '12345', algorithm: '13', digesttype: '2', digest: 'AB'.repeat(32) },
  'POST /domain/:id/owner/save/': OWNER,
  'POST /domain/:id/contacts/save/': { ...OWNER, type: 'admin', mode: 'only_contact' },
  'POST /domain/bulk/': { action: 'renewal', mode: 'auto', ids: ['1', '2', '3'] },
};
const requestOf = (e: Endpoint): Fields | null => {
  const fromSchema = sampleOf((e.body ?? e.query) as z.ZodType | undefined);
  const manual = SAMPLES[keyOf(e)];
  if (manual && (e.body ?? e.query) && (e.body ?? e.query)!.safeParse(manual).success) return manual;
  return fromSchema;
};

describeStores('a token scoped to one item and one area, over every call of the API, on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let bearer: Record<string, string>;
  const ids = { a: 0, b: 0, c: 0 };
  /** The path ids of each item's children, by the path parameter's name. */
  const children: Record<number, Record<string, string>> = {};

  /** One child of each kind on an item, straight in the store, as the calls' path ids. */
  async function seedChildren(itemId: number, reference: string) {
    const t = now();
    const { store } = ctx;
    const row = { item_id: itemId, job_id: null, created_at: t };
    const id = async (q: { executeTakeFirstOrThrow(): Promise<{ id: number }> }) => String((await q.executeTakeFirstOrThrow()).id);
    const site = await id(
      store.insertInto('site').values({ service_id: itemId, name: 'walk', folder: 'walk', created_at: t, updated_at: t }).returning('id'),
    );
    await store.insertInto('dns_zone').values({ item_id: itemId, name: reference, created_at: t }).execute();
    children[itemId] = {
      id: String(itemId),
      toggle: DOMAIN_TOGGLES[0],
      subId: site,
      ftpId: await id(
        store
          .insertInto('ftp_user')
          .values({ ...row, name: 'walk', login: `walk.${reference}`, folder: '', password_secret: 'x' })
          .returning('id'),
      ),
      dbId: await id(
        store
          .insertInto('service_database')
          .values({ ...row, name: `walk${itemId}`, username: `walk${itemId}`, password_secret: 'x' })
          .returning('id'),
      ),
      accountId: await id(
        store
          .insertInto('mail_account')
          .values({ ...row, name: 'walk', password_secret: 'x', quota: 1024 })
          .returning('id'),
      ),
      aliasId: await id(
        store
          .insertInto('mail_alias')
          .values({ ...row, name: 'walk', targets: 'ana@example.com' })
          .returning('id'),
      ),
      rid: await id(
        store
          .insertInto('redirection')
          .values({
            service_id: itemId,
            site_id: Number(site),
            origin: '/walk',
            kind: '301',
            target: 'https://example.org/',
            created_at: t,
          })
          .returning('id'),
      ),
      installId: await id(
        store
          .insertInto('installation')
          .values({ service_id: itemId, site_id: Number(site), app_id: 1, directory: 'walk', url: '', created_at: t })
          .returning('id'),
      ),
      // A backup that holds nothing: its calls answer from the row, and another item's never.
      snapshot: await id(
        store
          .insertInto('backup')
          .values({
            item_id: itemId,
            reason: 'customer',
            status: 'done',
            job_id: null,
            error: null,
            created_at: t,
            started_at: t,
            finished_at: t,
            forgotten_at: null,
          })
          .returning('id'),
      ),
      dnsId: await id(
        store
          .insertInto('dns_record')
          .values({ item_id: itemId, zona: 'walk', type: 'A', ttl: 600, priority: null, value: '203.0.113.9', created_at: t })
          .returning('id'),
      ),
      // A change in the zone's history (what a revert names).
      changeId: await id(
        store
          .insertInto('dns_change')
          .values({ item_id: itemId, at: t, kind: 'create', by: 'walk', before: '[]', after: '[]', reverts: null })
          .returning('id'),
      ),
      recordId: await id(
        store
          .insertInto('domain_host')
          .values({ item_id: itemId, name: `ns9.${reference}`, ipv4: '192.0.2.9', ipv6: '', created_at: t })
          .returning('id'),
      ),
      dnssecId: await id(
        store
          .insertInto('domain_ds')
          .values({ item_id: itemId, type: 'ds', key_tag: 1, algorithm: 13, digest_type: 2, digest: 'AB'.repeat(32), created_at: t })
          .returning('id'),
      ),
      // A failed change of another area than X: retrying it needs that area.
      jobId: await id(
        store
          .insertInto('job')
          .values({ kind: JOB.ftp, item_id: itemId, payload: '{}', status: 'failed', next_at: t, created_at: t, updated_at: t })
          .returning('id'),
      ),
    };
  }

  /** The call's path on an item, every parameter from that item's children; null when a parameter has no fixture yet. */
  const pathOn = (e: Endpoint, itemId: number) => {
    const missing = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]).filter((name) => children[itemId][name] === undefined);
    if (missing.length) return null;
    return e.path.replace(/:(\w+)/g, (_, name: string) => children[itemId][name]);
  };

  const call = (e: Endpoint, path: string, request: Fields, extra: Fields = {}) => {
    if (e.method === 'POST') return send(ctx.app, 'POST', path, bearer, { ...request, ...extra });
    const query = new URLSearchParams(Object.entries({ ...request, ...extra }).map(([k, v]) => [k, String(v)])).toString();
    return send(ctx.app, 'GET', query ? `${path}?${query}` : path, bearer);
  };

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    const expireAt = now() + DAY;
    acc = await createAccount(ctx.store, {
      users: { owner: 'all=write' },
      items: Object.values(REF).map((reference) => ({ reference, domain: true, service: 'normal' as const, mail: true, expireAt })),
    });
    ids.a = acc.items[REF.a];
    ids.b = acc.items[REF.b];
    ids.c = acc.items[REF.c];
    // On C its user sees the domain areas only.
    const notDomain = AREAS.filter((area) => !(AREAS_BY_KIND.domain as readonly Area[]).includes(area));
    await grant(ctx.store, acc.realm, 'owner', REF.c, Object.fromEntries(notDomain.map((area) => [area, 'disabled'])));
    for (const key of ['a', 'b', 'c'] as const) await seedChildren(ids[key], REF[key]);

    // The log: the user's own sign-in (no item), and changes on every item and area.
    expect((await login(ctx, { domainName: acc.realm, username: 'owner', password: TEST_PASSWORD }, {}, SIGN_IN_IP)).statusCode).toBe(200);
    const realmId = (await ctx.store.selectFrom('user').select('realm_id').where('id', '=', acc.users.owner).executeTakeFirstOrThrow())
      .realm_id;
    for (const [key, area] of [
      ['a', X],
      ['a', 'service_ftp'],
      ['a', 'domain'],
      ['b', X],
      ['c', 'domain'],
    ] as const) {
      await recordActivity(ctx.store, {
        action: 'walk.change',
        realmId,
        userId: acc.users.owner,
        ip: '192.0.2.44',
        item: { id: ids[key], reference: REF[key] },
        area,
      });
    }
    const token = await createToken(ctx.store, acc.users.owner, {
      name: 'walker',
      scope: { [X]: 'write' },
      items: [ids.a, ids.c],
      cidrs: [],
      expiresAt: null,
    });
    bearer = { authorization: `Bearer ${token.token}` };
    // A bulk action of the token's own, over every item: what its progress calls are walked on.
    const bulk = await send(ctx.app, 'POST', '/domain/bulk/', bearer, { action: 'renewal', mode: 'auto', ids: [ids.a, ids.b, ids.c] });
    expect(bulk.status).toBe(200);
    for (const key of ['a', 'b', 'c'] as const) children[ids[key]].bulkId = String(bulk.body.data.id);
  });
  afterAll(() => ctx.close());

  /**
   * What an answer may show: every reference in it is A's, B's and C's appear nowhere, nor the
   * user's sign-in address; an event is one of A in area X; a kind (a list's, the menu's flags)
   * shows A only when X belongs to it; an expiring thing only when its area is X.
   */
  function leaks(e: Endpoint, raw: string, data: Loose): string[] {
    const found: string[] = [];
    for (const hidden of [REF.b, REF.c, SIGN_IN_IP]) if (raw.includes(hidden)) found.push(`shows ${hidden}`);
    const xIn = (kind: ListKind) => (AREAS_BY_KIND[kind] as readonly Area[]).includes(X);
    const listKind = (Object.entries(endpoints.lists) as [string, Endpoint][]).find(([, entry]) => entry === e)?.[0];
    if (listKind && listKind in AREAS_BY_KIND && !xIn(listKind as ListKind) && data?.rows?.length)
      found.push(`lists ${data.rows.length} item(s) in the ${listKind} list`);
    const walk = (value: Loose) => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (!value || typeof value !== 'object') return;
      if (typeof value.reference === 'string' && value.reference !== REF.a) found.push(`shows ${value.reference}`);
      if ('action' in value && 'actor' in value && (value.item?.id !== ids.a || value.area !== X))
        found.push(`shows the event ${value.action} of ${value.item?.reference ?? 'the account'} in ${value.area}`);
      for (const [flag, k] of [
        ['hasDomain', 'domain'],
        ['hasService', 'service'],
        ['hasMail', 'mail'],
      ] as const)
        if (value[flag] === true && !xIn(k)) found.push(`shows ${flag}`);
      const kinds = Object.keys(value).sort().join();
      if (kinds === 'domain,mail,service')
        for (const k of ['domain', 'service', 'mail'] as const) if (value[k] === true && !xIn(k)) found.push(`has a ${k} list`);
      if (typeof value.kind === 'string' && value.kind in AREA_OF && typeof value.expiresAt === 'number')
        if (AREA_OF[value.kind as keyof typeof AREA_OF] !== X) found.push(`shows the ${value.kind} of ${value.reference} expiring`);
      if (value.permissions && typeof value.permissions === 'object')
        for (const [area, level] of Object.entries(value.permissions))
          if (area !== X && level !== 'disabled') found.push(`shows ${area}=${level}`);
      Object.values(value).forEach(walk);
    };
    walk(data);
    return found;
  }

  it('gets nothing of another item, of another area nor of the account from any call a token can reach', async () => {
    const problems: string[] = [];
    let walked = 0;
    for (const e of ALL_ENDPOINTS.filter(reachable)) {
      const request = requestOf(e);
      if (request === null) {
        problems.push(`${keyOf(e)}: no valid request; add one to SAMPLES`);
        continue;
      }
      const itemCall = e.path.includes(':id');
      if (itemCall) {
        // Another item, an item seen through other areas only, and on A a call of another area.
        const targets = [ids.b, ids.c, ...(inScopeOnA(e) || areasOf(e).length === 0 ? [] : [ids.a])];
        for (const itemId of targets) {
          const path = pathOn(e, itemId);
          if (path === null) {
            problems.push(`${keyOf(e)}: a path parameter has no fixture; add it to seedChildren`);
            break;
          }
          const res = await call(e, path, request);
          walked++;
          if (res.status !== 404 && res.status !== 403) problems.push(`${keyOf(e)} on ${path}: ${res.status}, not 404 or 403`);
        }
        // A call of the caller's own (its permission map on an item): on A it shows only X.
        if (areasOf(e).length > 0) continue;
      }
      if (isRawAnswer(e.answer)) continue;
      // A collection, and on A a signed-in call: what it shows, and what its filters open.
      const path = pathOn(e, ids.a)!;
      const shape = ((e.query ?? e.body) as z.ZodObject | undefined)?.shape ?? {};
      const variants: Fields[] = [{}];
      for (const hidden of [ids.b, ids.c]) if ('item' in shape) variants.push({ item: hidden });
      if ('area' in shape) variants.push({ area: 'domain' }, { area: 'account' });
      for (const extra of variants) {
        const res = await call(e, path, request, extra);
        walked++;
        if (res.status !== 200) {
          problems.push(`${keyOf(e)} ${JSON.stringify(extra)}: ${res.status}`);
          continue;
        }
        for (const leak of leaks(e, res.raw, res.body.data)) problems.push(`${keyOf(e)} ${JSON.stringify(extra)}: ${leak}`);
      }
    }
    expect(problems).toEqual([]);
    expect(walked).toBeGreaterThan(150);
  });

  it('is refused with 403 on every operator call, before anything is read', async () => {
    const operatorCalls = ALL_ENDPOINTS.filter(isOperatorCall);
    expect(operatorCalls.length).toBeGreaterThan(10);
    for (const e of operatorCalls) {
      const path = e.path.replace(':webhookId', '1');
      const res = await send(ctx.app, e.method, path, bearer, e.method === 'POST' ? {} : undefined);
      expect(res.status, path).toBe(403);
    }
  });

  it('sees what its scope names, so the walk is not empty: A in its lists, its events of X, its items of X', async () => {
    const events = (await send(ctx.app, 'GET', '/activity/', bearer)).body.data.events;
    expect(events.map((event: Loose) => [event.item.reference, event.area])).toEqual([[REF.a, X]]);
    const service = (await send(ctx.app, 'GET', '/list/service/?page=1', bearer)).body.data.rows;
    expect(service.map((row: Loose) => row.reference)).toEqual([REF.a]);
    expect((await send(ctx.app, 'GET', `/service/${ids.a}/dns/list/`, bearer)).status).toBe(200);
    expect((await send(ctx.app, 'GET', `/service/${ids.a}/dns/${children[ids.a].dnsId}/`, bearer)).status).toBe(200);
    const menu = (await send(ctx.app, 'GET', '/permission/list/', bearer)).body.data;
    expect(menu.map((item: Loose) => item.reference)).toEqual([REF.a]);
  });

  it('is refused every call that manages the account itself, with 403', async () => {
    const refused: string[] = [];
    for (const e of ALL_ENDPOINTS.filter((entry) => entry.sessionOnly && !isRawAnswer(entry.answer))) {
      const res = await call(e, e.path.replace(/:(\w+)/g, '1'), {});
      if (res.status !== 403) refused.push(`${keyOf(e)}: ${res.status}`);
    }
    expect(refused).toEqual([]);
  });
});
