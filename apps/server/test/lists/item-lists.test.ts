import { domainToASCII } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { grant } from '../../src/modules/provisioning/accounts.ts';
import { now } from '../../src/store/db.ts';
import { type Account, createAccount, send } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

const DAY = 86_400;
// Stored as punycode, shown as stored; the filter and the sort read them as written.
const NANDU = domainToASCII('ñandú.com');
const REGION = domainToASCII('región-café.es');

describeStores('the paged domain, service and mail lists on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  const t = now();
  // 23 domains: 'dominio-01.es' … 'dominio-23.es', expiring one day apart in reverse order, plus accented names.
  const numbered = Array.from({ length: 23 }, (_, i) => ({
    reference: `dominio-${String(i + 1).padStart(2, '0')}.es`,
    domain: true,
    expireAt: t + (30 - i) * DAY,
  }));
  const list = async (which: string, query = '', username = 'ana') =>
    send(ctx.app, 'GET', `/list/${which}/${query ? `?${query}` : ''}`, await acc.as(username));
  const references = (reply: { body: { data: { rows: { reference: string }[] } } }) =>
    reply.body.data.rows.map((r) => (r.reference === NANDU ? 'ñandú.com' : r.reference === REGION ? 'región-café.es' : r.reference));

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await createAccount(ctx.store, {
      users: { ana: 'all=write', luis: 'servicemail=read', nadie: 'all=disabled' },
      items: [
        ...numbered,
        { reference: 'región-café.es', domain: true, service: 'normal', mail: true, expireAt: t - 5 * DAY },
        { reference: 'ñandú.com', domain: true, service: 'parking', expireAt: t + 400 * DAY },
        { reference: 'solo-correo.es', mail: true, expireAt: t + 9 * DAY },
      ],
    });
    // A user of another realm with many domains: none of them may leak into this realm's lists.
    await createAccount(ctx.store, { users: { eve: 'all=write' }, items: [{ reference: 'ajeno-dominio.es', domain: true }] });
  });
  afterAll(() => ctx.close());

  it('answers the first page of 10 sorted by reference, with the total, each row with its expiry', async () => {
    const reply = await list('domain');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ total: 25, page: 1, pageSize: 10 });
    expect(references(reply)).toEqual(numbered.slice(0, 10).map((n) => n.reference));
    expect(reply.body.data.rows[0]).toEqual({
      id: acc.items['dominio-01.es'],
      reference: 'dominio-01.es',
      expireTS: t + 30 * DAY,
      isRedirAndParking: false,
      expiry: { state: 'active', until: t + 30 * DAY },
    });
  });

  it('answers the last page with the rows left over, sorting accented names as their plain letters', async () => {
    const reply = await list('domain', 'page=3');
    expect(reply.status).toBe(200);
    // 'ñandú' sorts as 'nandu', 'región' as 'region': after every 'dominio-'.
    expect(references(reply)).toEqual(['dominio-21.es', 'dominio-22.es', 'dominio-23.es', 'ñandú.com', 'región-café.es']);
  });

  it('refuses a page past the last one under the page field, naming how many pages there are', async () => {
    const reply = await list('domain', 'page=4');
    expect(reply.status).toBe(400);
    expect(reply.body.system.inputs).toEqual(['page']);
    expect(reply.body.system.errors).toEqual(['Esa página no existe: la lista tiene 3 páginas']);
  });

  it('refuses a page that is not a whole number of 1 or more, and an unknown sort, under their fields', async () => {
    for (const [query, input] of [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['sort=price', 'sort'],
      ['order=up', 'order'],
    ]) {
      const reply = await list('domain', query);
      expect(reply.status, query).toBe(400);
      expect(reply.body.system.inputs, query).toEqual([input]);
    }
    const english = await list('domain', 'sort=price&language=en');
    expect(english.body.system.errors).toEqual(['Invalid option']);
  });

  it('filters on the reference ignoring accents and case, every word anywhere in it', async () => {
    expect(references(await list('domain', 'filter=REGION'))).toEqual(['región-café.es']);
    expect(references(await list('domain', `filter=${encodeURIComponent('Cafe regi')}`))).toEqual(['región-café.es']);
    expect(references(await list('domain', `filter=${encodeURIComponent('ÑANDU')}`))).toEqual(['ñandú.com']);
    // The stored (punycode) spelling finds it too.
    expect(references(await list('domain', `filter=${NANDU.slice(0, 8)}`))).toEqual(['ñandú.com']);
    const twos = await list('domain', 'filter=-2');
    expect(twos.body.data.total).toBe(4);
    expect(references(twos)).toEqual(['dominio-20.es', 'dominio-21.es', 'dominio-22.es', 'dominio-23.es']);
  });

  it('treats %, _ and \\ in a filter as plain characters', async () => {
    const reply = await list('domain', `filter=${encodeURIComponent('%')}`);
    expect(reply.body.data).toMatchObject({ total: 0, rows: [] });
    expect((await list('domain', 'filter=_')).body.data.total).toBe(0);
    // Unescaped, `\-` would stand for `-` and find dominio-2x.es.
    for (const filter of ['\\', 'dominio\\-2', '\\%']) {
      const answer = await list('domain', `filter=${encodeURIComponent(filter)}`);
      expect(answer.status).toBe(200);
      expect(answer.body.data.total).toBe(0);
    }
    // The same words without them still find their rows: the escaping changes nothing else.
    expect((await list('domain', 'filter=dominio-2')).body.data.total).toBeGreaterThan(0);
  });

  // PostgreSQL only (SQLite needs no index for its filter), so the SQLite run has no twin to skip.
  if (kind === 'postgres') {
    it('keeps a trigram index of the entries for the filter on PostgreSQL', async () => {
      const { rows } = await sql<{ indexdef: string }>`SELECT indexdef FROM pg_indexes WHERE indexname = 'list_entry_filter'`.execute(
        ctx.store,
      );
      expect(rows.map((r) => r.indexdef)).toEqual([expect.stringMatching(/ON public\.list_entry USING gin \(search gin_trgm_ops\)/)]);
    });
  }

  it('answers an empty page 1 when the filter keeps nothing, and refuses its page 2', async () => {
    const reply = await list('domain', 'filter=nada-de-esto');
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual({ rows: [], total: 0, page: 1, pageSize: 10 });
    expect((await list('domain', 'filter=nada-de-esto&page=2')).status).toBe(400);
  });

  it('pages a filtered list: its total and pages count only the kept rows', async () => {
    const first = await list('domain', 'filter=dominio-1');
    expect(first.body.data.total).toBe(10);
    expect((await list('domain', 'filter=dominio-1&page=2')).status).toBe(400);
    // Every page of a filter gives the whole filter's total, the last one too.
    const second = await list('domain', 'filter=dominio&page=2');
    expect(second.body.data).toMatchObject({ total: 23, page: 2 });
    expect(references(second)).toEqual(Array.from({ length: 10 }, (_, i) => `dominio-${i + 11}.es`));
    const third = await list('domain', 'filter=dominio&page=3&order=desc');
    expect(third.body.data.total).toBe(23);
    expect(references(third)).toEqual(['dominio-03.es', 'dominio-02.es', 'dominio-01.es']);
    expect((await list('domain', 'filter=dominio&page=4')).status).toBe(400);
  });

  it('sorts by reference descending', async () => {
    expect(references(await list('domain', 'order=desc')).slice(0, 3)).toEqual(['región-café.es', 'ñandú.com', 'dominio-23.es']);
  });

  it('sorts by expiry ascending and descending, the expired first when ascending', async () => {
    expect(references(await list('domain', 'sort=expiry')).slice(0, 3)).toEqual(['región-café.es', 'dominio-23.es', 'dominio-22.es']);
    expect(references(await list('domain', 'sort=expiry&order=desc')).slice(0, 2)).toEqual(['ñandú.com', 'dominio-01.es']);
    const last = await list('domain', 'sort=expiry&page=3');
    expect(references(last)).toEqual(['dominio-04.es', 'dominio-03.es', 'dominio-02.es', 'dominio-01.es', 'ñandú.com']);
  });

  it('lists services with their kind (hosting or parking) and mail with its own items', async () => {
    const services = await list('service');
    expect(services.body.data.rows).toEqual([
      { id: acc.items['ñandú.com'], reference: NANDU, expireTS: t + 400 * DAY, isRedirAndParking: true },
      { id: acc.items['región-café.es'], reference: REGION, expireTS: t - 5 * DAY, isRedirAndParking: false },
    ]);
    expect(references(await list('mail'))).toEqual(['región-café.es', 'solo-correo.es']);
    expect(references(await list('mail', 'sort=expiry'))).toEqual(['región-café.es', 'solo-correo.es']);
  });

  it('lists only the kinds a user sees: mail read alone shows no domains and no services', async () => {
    expect((await list('domain', '', 'luis')).body.data.total).toBe(0);
    expect((await list('service', '', 'luis')).body.data.total).toBe(0);
    expect(references(await list('mail', '', 'luis'))).toEqual(['región-café.es', 'solo-correo.es']);
    expect((await list('domain', '', 'nadie')).body.data).toEqual({ rows: [], total: 0, page: 1, pageSize: 10 });
  });

  it('answers which lists the user has, for the side menu', async () => {
    const kinds = async (username: string) => (await send(ctx.app, 'GET', '/list/kinds/', await acc.as(username))).body.data;
    expect(await kinds('ana')).toEqual({ domain: true, service: true, mail: true });
    expect(await kinds('luis')).toEqual({ domain: false, service: false, mail: true });
    expect(await kinds('nadie')).toEqual({ domain: false, service: false, mail: false });
  });

  it('follows a new grant at once: the item joins the lists of the kinds it opens', async () => {
    await grant(ctx.store, acc.realm, 'luis', 'ñandú.com', { domain_dns: 'read' });
    expect(references(await list('domain', '', 'luis'))).toEqual(['ñandú.com']);
    expect((await list('service', '', 'luis')).body.data.total).toBe(0);
    await grant(ctx.store, acc.realm, 'luis', 'ñandú.com', { domain_dns: 'disabled' });
    expect((await list('domain', '', 'luis')).body.data.total).toBe(0);
  });

  it('gives the dashboard the domain total from the same entries', async () => {
    const info = await send(ctx.app, 'POST', '/user/info/', await acc.as('ana'));
    expect(info.body.data.total_domain).toBe(25);
  });
});
