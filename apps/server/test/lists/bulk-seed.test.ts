import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.ts';
import { bulkItem, seedBulkRealm } from '../../src/modules/provisioning/bulk.ts';
import { DKIM_JOB } from '../../src/modules/service/mail/dkim.ts';
import { createSession, SESSION_COOKIE } from '../../src/modules/session/sessions.ts';
import { openStore } from '../../src/store/db.ts';
import { send } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

const ITEMS = 2500;
const shapes = Array.from({ length: ITEMS }, (_, n) => bulkItem('masivo', n));
const expected = {
  domain: shapes.filter((s) => s.domain).length,
  service: shapes.filter((s) => s.service).length,
  mail: shapes.filter((s) => s.mail).length,
};

describeStores('the bulk seed of a big realm on %s', (kind) => {
  let ctx: TestContext;
  let headers: Record<string, string>;

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    const seeded = await seedBulkRealm(ctx.store, {
      realm: 'masivo.example',
      username: 'ana',
      password: 'seed-password-1',
      items: ITEMS,
      mailKeys: true,
    });
    headers = { cookie: `${SESSION_COOKIE}=${await createSession(ctx.store, seeded.userId)}`, 'x-dd-request': '1' };
  });
  afterAll(() => ctx.close());

  it('creates the N items, mixing domains, hosting, parking and mail', async () => {
    const count = async (table: 'item' | 'domain' | 'service' | 'mail_service') =>
      Number(
        (
          await ctx.store
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await count('item')).toBe(ITEMS);
    expect(await count('domain')).toBe(expected.domain);
    expect(await count('service')).toBe(expected.service);
    expect(await count('mail_service')).toBe(expected.mail);
    expect(expected.domain).toBeGreaterThan(0);
    expect(shapes.some((s) => s.service === 'parking')).toBe(true);
    expect(shapes.some((s) => s.expiresInDays < 0)).toBe(true);
  });

  it("gives its user every item's kinds in the lists, with their totals, and the first page of each", async () => {
    for (const list of ['domain', 'service', 'mail'] as const) {
      const reply = await send(ctx.app, 'GET', `/list/${list}/`, headers);
      expect(reply.body.data.total, list).toBe(expected[list]);
      expect(reply.body.data.rows, list).toHaveLength(10);
    }
    const last = Math.ceil(expected.domain / 10);
    const lastPage = await send(ctx.app, 'GET', `/list/domain/?page=${last}`, headers);
    expect(lastPage.body.data.rows).toHaveLength(expected.domain - (last - 1) * 10);
    expect((await send(ctx.app, 'GET', `/list/domain/?page=${last + 1}`, headers)).status).toBe(400);
    expect((await send(ctx.app, 'POST', '/user/info/', headers)).body.data.total_domain).toBe(expected.domain);
  });

  it('queues no DKIM job unless asked: a realm seeded to measure the lists makes no keys meanwhile', async () => {
    await seedBulkRealm(ctx.store, { realm: 'sinclaves.example', username: 'ana', password: 'seed-password-1', items: 12 });
    const jobs = await ctx.store
      .selectFrom('job')
      .innerJoin('item', 'item.id', 'job.item_id')
      .innerJoin('realm', 'realm.id', 'item.realm_id')
      .select('job.id')
      .where('realm.name', '=', 'sinclaves.example')
      .where('job.kind', '=', DKIM_JOB)
      .execute();
    expect(jobs).toEqual([]);
  });

  it('queues the DKIM job of every mail domain when asked, one each, as an item made alone gets', async () => {
    const jobs = await ctx.store
      .selectFrom('job')
      .innerJoin('mail_service', 'mail_service.item_id', 'job.item_id')
      .select(['job.item_id', 'job.payload'])
      .where('job.kind', '=', DKIM_JOB)
      .execute();
    expect(jobs).toHaveLength(expected.mail);
    expect(new Set(jobs.map((j) => j.item_id)).size).toBe(expected.mail);
    expect(jobs.every((j) => JSON.parse(j.payload).itemId === j.item_id)).toBe(true);
  });

  it('finds an accented name by its plain spelling', async () => {
    // Item 2 is 'masivo-café-000002.cat', a domain with hosting.
    const reply = await send(ctx.app, 'GET', `/list/domain/?filter=${encodeURIComponent('CAFE 000002')}`, headers);
    expect(reply.body.data.total).toBe(1);
    expect(reply.body.data.rows[0].reference).toBe(shapes[2].reference);
  });

  it('refuses a realm name that exists already, and a count of no items', async () => {
    await expect(
      seedBulkRealm(ctx.store, { realm: 'masivo.example', username: 'ana', password: 'seed-password-1', items: 1 }),
    ).rejects.toThrow(/already exists/);
    await expect(
      seedBulkRealm(ctx.store, { realm: 'otro.example', username: 'ana', password: 'seed-password-1', items: 0 }),
    ).rejects.toThrow(/from 1 to/);
  });
});

describe('the admin command seed-realm', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-seed-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('seeds a realm of --items N items and says so', { timeout: 120_000 }, async () => {
    const result = spawnSync(
      process.execPath,
      [
        '--disable-warning=ExperimentalWarning',
        path.resolve(import.meta.dirname, '../../src/cli/main.ts'),
        'seed-realm',
        'cli-masivo.es',
        'ana',
        '--items',
        '300',
        '--password',
        'seed-password-1',
      ],
      { env: { ...process.env, ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' }, encoding: 'utf8' },
    );
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Realm cli-masivo\.es seeded with 300 items in \d+\.\d s\n$/);
    const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' }));
    try {
      const row = await store
        .selectFrom('item')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(row.n)).toBe(300);
    } finally {
      await store.destroy();
    }
  });
});
