import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.ts';
import { now, openStore } from '../src/store/db.ts';
import { describeStores, openTestStore } from './stores.ts';

const mode = (file: string) => statSync(file).mode & 0o777;

/** Data-dir modes (decision 015): nothing in the data dir is readable by another local account. */
describeStores('the data directory on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** A config on a data dir of this test (PostgreSQL: a database of its own, the data dir still holds the key and mail). */
  async function configFor(dataDir: string) {
    if (kind === 'sqlite') return loadConfig({ ATALAYA_DATA_DIR: dataDir }, {});
    const { config, cleanup } = await openTestStore('postgres');
    cleanups.push(() => cleanup());
    return loadConfig({ ATALAYA_DATA_DIR: dataDir, DATABASE_URL: config.databaseUrl! }, {});
  }

  it('is created 0700 with every file in it 0600, the store’s WAL and shared-memory files included', async () => {
    const parent = mkdtempSync(path.join(tmpdir(), 'atalaya-dir-'));
    cleanups.push(() => rmSync(parent, { recursive: true, force: true }));
    const dataDir = path.join(parent, 'data');
    const store = await openStore(await configFor(dataDir));
    await store.insertInto('notice').values({ user_id: 0, type: 'probe', at: now() }).execute();
    const { loadSecretKey } = await import('../src/secrets.ts');
    loadSecretKey(dataDir);
    try {
      expect(mode(dataDir)).toBe(0o700);
      const files = kind === 'sqlite' ? ['atalaya.sqlite', 'atalaya.sqlite-wal', 'atalaya.sqlite-shm', 'secret.key'] : ['secret.key'];
      for (const file of files) expect(mode(path.join(dataDir, file)), file).toBe(0o600);
    } finally {
      await store.destroy();
    }
  });

  it('has the modes of an existing one repaired at start', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-dir-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const config = await configFor(dataDir);
    // What an older version, or a umask of 022, left behind.
    const first = await openStore(config);
    await first.destroy();
    mkdirSync(path.join(dataDir, 'outbox'));
    mkdirSync(path.join(dataDir, 'sites', 'deep'), { recursive: true });
    writeFileSync(path.join(dataDir, 'outbox', 'm.eml'), 'From: x');
    writeFileSync(path.join(dataDir, 'sites', 'deep', 'site-1.json'), '{}');
    writeFileSync(path.join(dataDir, 'secret.key'), Buffer.alloc(32).toString('base64'));
    const outside = path.join(tmpdir(), `atalaya-outside-${process.pid}`);
    writeFileSync(outside, 'not ours');
    chmodSync(outside, 0o644);
    cleanups.push(() => rmSync(outside, { force: true }));
    symlinkSync(outside, path.join(dataDir, 'link'));
    for (const dir of [dataDir, path.join(dataDir, 'outbox'), path.join(dataDir, 'sites'), path.join(dataDir, 'sites', 'deep')])
      chmodSync(dir, 0o755);
    const files = ['secret.key', 'outbox/m.eml', 'sites/deep/site-1.json', ...(kind === 'sqlite' ? ['atalaya.sqlite'] : [])];
    for (const file of files) chmodSync(path.join(dataDir, file), 0o644);

    const store = await openStore(config);
    await store.destroy();
    expect(mode(dataDir)).toBe(0o700);
    for (const dir of ['outbox', 'sites', 'sites/deep']) expect(mode(path.join(dataDir, dir)), dir).toBe(0o700);
    for (const file of files) expect(mode(path.join(dataDir, file)), file).toBe(0o600);
    expect(mode(outside)).toBe(0o644); // a link is not followed out of the data dir
  });
});
