import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config/config.ts';
import { openStore, type Store } from '../../src/store/db.ts';
import { createAccount, send } from '../fixtures.ts';
import { adminQuery, freshDatabase } from '../pg.ts';
import { describePostgres } from '../stores.ts';

const ADMIN = process.env.ATALAYA_TEST_PG ?? '';

/** Migration 0020 on a server whose database user may create tables but not extensions. */
describePostgres('the list filter on a PostgreSQL that refuses pg_trgm', () => {
  const role = `atalaya_noext_${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-noext-'));
  let drop: () => Promise<void>;
  let store: Store;
  let app: Awaited<ReturnType<typeof buildApp>>;

  beforeAll(async () => {
    const db = await freshDatabase(ADMIN);
    drop = db.drop;
    const database = new URL(db.url).pathname.slice(1);
    // Not the owner and without CREATE on the database: CREATE EXTENSION is refused to it.
    await adminQuery(ADMIN, `CREATE ROLE ${role} LOGIN`);
    await adminQuery(ADMIN, `GRANT CREATE ON SCHEMA public TO ${role}`, database);
    const url = new URL(db.url);
    url.username = role;
    const config = loadConfig({ ATALAYA_DATA_DIR: dataDir, DATABASE_URL: url.toString() });
    store = await openStore(config);
    app = await buildApp({ config, store, worker: false });
  });
  afterAll(async () => {
    await app?.close();
    await store?.destroy();
    await drop?.();
    await adminQuery(ADMIN, `DROP ROLE IF EXISTS ${role}`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('migrates without the trigram indexes, and the filter still finds its rows', async () => {
    const extension = await sql`SELECT extname FROM pg_extension WHERE extname = 'pg_trgm'`.execute(store);
    expect(extension.rows).toEqual([]);
    // Neither the lists' (migration 0020) nor the DNS records' (0021).
    const index = await sql`SELECT indexname FROM pg_indexes WHERE indexname IN ('list_entry_filter', 'dns_record_search')`.execute(store);
    expect(index.rows).toEqual([]);
    const acc = await createAccount(store, {
      users: { ana: 'all=write' },
      items: [
        { reference: 'tienda-cafe.es', domain: true },
        { reference: 'otra.es', domain: true },
      ],
    });
    const reply = await send(app, 'GET', '/list/domain/?filter=CAFÉ', await acc.as('ana'));
    expect(reply.status).toBe(200);
    expect(reply.body.data.rows.map((r: { reference: string }) => r.reference)).toEqual(['tienda-cafe.es']);
  });
});
