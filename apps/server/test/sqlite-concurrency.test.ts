import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { now } from '../src/store/db.ts';
import { openTestStore } from './stores.ts';

// Another process writing to the same SQLite file, as the admin CLI does beside a running server.
const WRITER = `
const { DatabaseSync } = require('node:sqlite');
const db = new DatabaseSync(process.argv[1]);
db.exec('PRAGMA busy_timeout = 5000');
const insert = db.prepare("INSERT INTO notice (user_id, type, at) VALUES (0, 'writer', 0)");
const until = Date.now() + 1500;
while (Date.now() < until) { insert.run(); const t = Date.now() + 5; while (Date.now() < t); }
`;

describe('the SQLite store beside another writing process', () => {
  let ctx: Awaited<ReturnType<typeof openTestStore>>;
  beforeAll(async () => {
    ctx = await openTestStore('sqlite');
  });
  afterAll(() => ctx.cleanup());

  it('runs read-then-write transactions without SQLITE_BUSY while another process writes', async () => {
    const file = path.join(ctx.config.dataDir, 'atalaya.sqlite');
    const writer = spawn(process.execPath, ['-e', WRITER, file], { stdio: 'inherit' });
    const finished = new Promise((resolve) => writer.on('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    for (let i = 0; i < 10; i++) {
      await ctx.store.transaction().execute(async (trx) => {
        const count = await trx
          .selectFrom('notice')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        await new Promise((resolve) => setTimeout(resolve, 20)); // the other process gets its turn here
        await trx
          .insertInto('notice')
          .values({ user_id: Number(count.n), type: 'panel', at: now() })
          .execute();
      });
    }
    expect(await finished).toBe(0);
    const panel = await ctx.store.selectFrom('notice').select('id').where('type', '=', 'panel').execute();
    expect(panel).toHaveLength(10);
  });
});

// A process that opens the store's file as the server does, then writes as a migration would.
const OPENER = `
const { nodeSqliteDialect } = await import(process.argv[1]);
const { DatabaseSync } = await import('node:sqlite');
nodeSqliteDialect(process.argv[2]);
const db = new DatabaseSync(process.argv[2]);
db.exec('PRAGMA busy_timeout = 5000; BEGIN IMMEDIATE; CREATE TABLE IF NOT EXISTS t' + process.pid + ' (a); COMMIT');
`;

describe('a new SQLite file opened by two processes at once', () => {
  it('is switched to WAL by both, twenty times over, without a lock error', { timeout: 60_000 }, async () => {
    const dialect = path.resolve(import.meta.dirname, '../src/store/sqlite-dialect.ts');
    const open = (file: string) =>
      promisify(execFile)(process.execPath, ['--disable-warning=ExperimentalWarning', '--input-type=module', '-e', OPENER, dialect, file]);
    const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-wal-'));
    try {
      for (let round = 0; round < 20; round++) {
        const file = path.join(dir, `${round}.sqlite`);
        await Promise.all([open(file), open(file)]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
