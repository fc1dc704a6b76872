import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { createSecrets, sealingKey } from '../src/secrets.ts';
import { openStore } from '../src/store/db.ts';
import { describeStores, openTestApp, type TestContext } from './stores.ts';

const CLI = path.resolve(import.meta.dirname, '../src/cli/main.ts');
const dir = () => mkdtempSync(path.join(tmpdir(), 'atalaya-key-'));

describe('the sealing key shared by several machines', () => {
  it('seals on one process and opens on another with the same ATALAYA_SECRET_KEY and separate data dirs', () => {
    const key = randomBytes(32).toString('base64');
    const one = createSecrets(sealingKey(loadConfig({ ATALAYA_DATA_DIR: dir(), ATALAYA_SECRET_KEY: key })));
    const two = createSecrets(sealingKey(loadConfig({ ATALAYA_DATA_DIR: dir(), ATALAYA_SECRET_KEY: key })));
    expect(two.decrypt(one.encrypt('clave-del-buzón'))).toBe('clave-del-buzón');
  });

  it('reads the key from ATALAYA_SECRET_KEY_FILE, and refuses a missing file or a key of the wrong size naming the setting', () => {
    const file = path.join(dir(), 'panel.key');
    writeFileSync(file, randomBytes(32).toString('base64'));
    const config = loadConfig({ ATALAYA_DATA_DIR: dir(), ATALAYA_SECRET_KEY_FILE: file });
    expect(sealingKey(config).length).toBe(32);
    expect(() => sealingKey(loadConfig({ ATALAYA_DATA_DIR: dir(), ATALAYA_SECRET_KEY_FILE: `${file}.gone` }))).toThrow(
      /ATALAYA_SECRET_KEY_FILE\) does not exist/,
    );
    expect(() => sealingKey(loadConfig({ ATALAYA_DATA_DIR: dir(), ATALAYA_SECRET_KEY: 'c2hvcnQ=' }))).toThrow(
      /ATALAYA_SECRET_KEY must hold a base64 32-byte key/,
    );
  });

  it('accepts ATALAYA_WORKERS as a number or auto, and refuses anything else naming it', () => {
    expect(loadConfig({ ATALAYA_WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ ATALAYA_WORKERS: 'auto' }).workers).toBe('auto');
    expect(() => loadConfig({ ATALAYA_WORKERS: 'many' })).toThrow(/workers \(ATALAYA_WORKERS\)/);
  });
});

describeStores('starting several processes on one %s store', (kind) => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await openTestApp(kind);
  });
  afterAll(() => ctx.close());

  it('migrates a fresh store once when two processes start at the same moment', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-migrate-'));
    let databaseUrl: string | undefined;
    const name = `atalaya_m_${process.pid}_${randomBytes(4).toString('hex')}`;
    const admin = process.env.ATALAYA_TEST_PG;
    if (kind === 'postgres' && admin) {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      await client.end();
      const url = new URL(admin);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
    }
    try {
      // Two processes (the admin CLI opens and migrates the store like a server) on one blank store.
      const env = { ...process.env, ATALAYA_DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' };
      const run = () => promisify(execFile)(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, 'realm-list'], { env });
      await Promise.all([run(), run()]);
      const store = await openStore({ dataDir, databaseUrl });
      const applied = await sql<{ name: string }>`SELECT name FROM schema_migration ORDER BY name`.execute(store);
      expect(applied.rows.map((r) => r.name)).toContain('0009_notice_notify');
      await store.destroy();
    } finally {
      if (databaseUrl) {
        const client = new pg.Client({ connectionString: admin });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      }
    }
  });

  it('answers /p247/health and /p247/ready 200 without a session, and /p247/ready 503 while a migration is missing', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/p247/health' })).json().data).toEqual({ status: 'ok' });
    const ready = await ctx.app.inject({ method: 'GET', url: '/p247/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().data).toEqual({ status: 'ready' });
    await sql`DELETE FROM schema_migration WHERE name = '0009_notice_notify'`.execute(ctx.store);
    const notReady = await ctx.app.inject({ method: 'GET', url: '/p247/ready' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json().data.reason).toBe('migrations not applied: 0009_notice_notify');
    expect((await ctx.app.inject({ method: 'GET', url: '/p247/health' })).statusCode).toBe(200);
  });
});
