import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, type BackupRepository, type StoredPart } from '../../src/drivers/backups/interface.ts';
import { resticDriver } from '../../src/drivers/backups/restic.ts';
import { resticEnv } from '../../src/drivers/backups/run.ts';
import type { DatabaseDriver } from '../../src/drivers/databases/interface.ts';
import { missingBinaries } from '../backends/harness/common.ts';

/**
 * The restic driver against the real restic (Debian's 0.14) on a local repository: what it saves
 * comes back byte for byte, a copy lands beside the live data and a replace over it, and a path
 * that leaves the snapshot's roots is refused. The repository is readable by restic alone.
 */
const RESTIC = '/usr/bin/restic';
const skip = missingBinaries(RESTIC);

export const REFERENCE = 'tienda.test';
export const ADDRESS = 'ana@tienda.test';

/** A web folder and a mailbox home with a few small files, under fresh roots. */
export function makeTree(base: string) {
  const webRoot = path.join(base, 'www');
  const mailRoot = path.join(base, 'vmail');
  const site = path.join(webRoot, REFERENCE);
  mkdirSync(path.join(site, 'img/deep'), { recursive: true });
  writeFileSync(path.join(site, 'index.html'), '<h1>tienda</h1>\n');
  writeFileSync(path.join(site, 'img/logo.bin'), Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256)));
  writeFileSync(path.join(site, 'img/deep/empty.txt'), '');
  symlinkSync('/etc', path.join(site, 'etc-link'));
  const maildir = path.join(mailRoot, 'tienda.test/ana/Maildir');
  for (const folder of ['', '.Sent'])
    for (const sub of ['cur', 'new', 'tmp']) mkdirSync(path.join(maildir, folder, sub), { recursive: true });
  writeFileSync(path.join(maildir, 'cur/1.m1:2,S'), 'Subject: hola\r\n\r\nprimer mensaje\r\n');
  writeFileSync(path.join(maildir, '.Sent/cur/2.m2:2,S'), 'Subject: enviado\r\n\r\nsegundo\r\n');
  writeFileSync(path.join(maildir, 'subscriptions'), 'Sent\n');
  return { webRoot, mailRoot, site, maildir };
}

/** Every file below a folder by relative path, with its bytes' digest (links by their target). */
export function digestTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = path.join(rel, entry.name);
      if (entry.isDirectory()) walk(r);
      else if (entry.isSymbolicLink())
        out[r] = `link:${execFileSync('readlink', [path.join(dir, r)])
          .toString()
          .trim()}`;
      else
        out[r] = createHash('sha256')
          .update(readFileSync(path.join(dir, r)))
          .digest('hex');
    }
  };
  walk('');
  return out;
}

export async function collect(stream: Readable) {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/** restic run directly, as an operator would with the realm's key. */
export function resticJson(repo: BackupRepository, args: string[]) {
  const out = spawnSync(RESTIC, [...args, '--json', '--no-cache'], { env: resticEnv(repo), encoding: 'utf8' });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout);
}

/** A database driver that keeps dumps in memory: the MariaDB one is tested in mariadb-backup.test.ts. */
function memoryDatabases(): DatabaseDriver & { data: Map<string, string> } {
  const data = new Map<string, string>([['shop_1', 'CREATE TABLE t (a int);\nINSERT INTO t VALUES (1);\n']]);
  return {
    data,
    prefix: '',
    ensure: async () => {},
    remove: async () => {},
    sizes: async () => ({}),
    dump: async (name) => (await import('node:stream')).Readable.from([Buffer.from(data.get(name) ?? '')]),
    restore: async (name, sql) => {
      data.set(name, (await collect(sql)).toString());
    },
  };
}

describe.skipIf(skip)('the restic backup driver on a local repository', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'atalaya-restic-'));
  const tree = makeTree(base);
  const repo: BackupRepository = { url: path.join(base, 'repo'), password: 'realm-key-0123456789' };
  const databases = memoryDatabases();
  const driver = resticDriver({
    restic: { binary: RESTIC, cacheDir: path.join(base, 'cache') },
    webRoot: tree.webRoot,
    mailRoot: tree.mailRoot,
    databases: () => databases,
  });
  let parts: StoredPart[];
  let before: Record<string, string>;
  const zoneText = '$ORIGIN tienda.test.\n@ 3600 IN A 192.0.2.1\n';

  beforeAll(async () => {
    before = digestTree(tree.site);
    await driver.ensureRepository(repo);
    await driver.ensureRepository(repo);
    const progress: number[] = [];
    ({ parts } = await driver.snapshot(
      repo,
      {
        tags: ['realm:demo', 'service:tienda.test'],
        host: 'panel',
        web: { reference: REFERENCE },
        mail: { addresses: [ADDRESS, 'nadie@tienda.test'] },
        db: { names: ['shop_1'] },
        zone: { domain: 'tienda.test', text: zoneText },
        settings: { json: '{"sites":[]}' },
      },
      (p) => progress.push(p),
    ));
    expect(progress.at(-1)).toBe(100);
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('takes one snapshot per part, tagged so that restic alone finds them', () => {
    expect(parts.map((p) => p.part)).toEqual(['web', 'mail', 'db', 'zone', 'settings']);
    // A mailbox with no home on this machine is left out rather than failing the backup.
    expect(parts[1].names).toEqual([ADDRESS]);
    const listed = resticJson(repo, ['snapshots', '--tag', 'service:tienda.test']) as { id: string; tags: string[]; paths: string[] }[];
    expect(listed.map((s) => s.id).sort()).toEqual(parts.map((p) => p.snapshot).sort());
    expect(listed.find((s) => s.id === parts[2].snapshot)?.tags.sort()).toEqual([
      'db:shop_1',
      'part:db',
      'realm:demo',
      'service:tienda.test',
    ]);
    expect(listed.find((s) => s.id === parts[0].snapshot)?.paths).toEqual([tree.site]);
    expect(parts[0].size).toBeGreaterThan(3000);
  });

  it('browses the tree: the parts, the mailboxes, the dumps and a folder of the web root', async () => {
    expect((await driver.list(repo, parts, '/')).map((e) => e.name)).toEqual(['web', 'mail', 'db', 'zone']);
    expect((await driver.list(repo, parts, '/mail/')).map((e) => e.name)).toEqual([ADDRESS]);
    const dumps = await driver.list(repo, parts, '/db/');
    expect(dumps).toMatchObject([{ name: 'shop_1.sql', type: 'file', size: databases.data.get('shop_1')?.length }]);
    expect(await driver.list(repo, parts, '/web/')).toMatchObject([
      { name: 'img', type: 'dir' },
      { name: 'etc-link', type: 'symlink' },
      { name: 'index.html', type: 'file', size: 16 },
    ]);
    expect((await driver.list(repo, parts, `/mail/${ADDRESS}/Maildir/.Sent/cur`)).map((e) => e.name)).toEqual(['2.m2:2,S']);
    expect(await driver.read(repo, parts, '/zone/tienda.test.zone')).toBe(zoneText);
  });

  it('refuses a path that leaves the roots: .., a link that points out, an absolute path outside', async () => {
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => 'accepted',
        (e) => (e instanceof BackupError ? e.key : String(e)),
      );
    expect(await refused(driver.list(repo, parts, '/web/../../etc'))).toBe('backups.path_outside');
    expect(await refused(driver.list(repo, parts, '/web/etc-link/'))).toBe('backups.path_outside');
    expect(await refused(driver.read(repo, parts, '/web/etc-link/passwd'))).toBe('backups.path_outside');
    expect(await refused(driver.download(repo, parts, '/web/etc-link/passwd'))).toBe('backups.path_outside');
    expect(await refused(driver.download(repo, parts, '/etc/passwd'))).toBe('backups.path_not_found');
    expect(await refused(driver.read(repo, parts, `/web${tree.site}/index.html`))).toBe('backups.path_not_found');
    expect(await refused(driver.list(repo, parts, '/web/nothing-here/'))).toBe('backups.path_not_found');
    expect(await refused(driver.list(repo, parts, '/mail/otro@tienda.test/'))).toBe('backups.path_not_found');
    const outside = path.join(base, 'outside');
    mkdirSync(outside);
    // A link in the live tree must not redirect a restore's write out of the web folder.
    const img = path.join(base, 'img-aside');
    execFileSync('mv', [path.join(tree.site, 'img'), img]);
    symlinkSync(outside, path.join(tree.site, 'img'));
    const viaLink = { parts, part: 'web' as const, path: '/img/deep', target: 'replace' as const, stamp: 'x' };
    expect(await refused(driver.restore(repo, viaLink))).toBe('backups.path_outside');
    expect(readdirSync(outside)).toEqual([]);
    rmSync(path.join(tree.site, 'img'));
    execFileSync('mv', [img, path.join(tree.site, 'img')]);
  });

  it('downloads a folder as a .tar.gz that unpacks to the same bytes, and one file as a one-entry archive', async () => {
    const out = path.join(base, 'unpacked');
    mkdirSync(out);
    const archive = path.join(base, 'img.tar.gz');
    await pipeline(await driver.download(repo, parts, '/web/img'), (await import('node:fs')).createWriteStream(archive));
    execFileSync('tar', ['-xzf', archive, '-C', out]);
    const img = Object.fromEntries(
      Object.entries(before)
        .filter(([k]) => k.startsWith('img/'))
        .map(([k, v]) => [k.slice(4), v]),
    );
    expect(digestTree(path.join(out, 'img'))).toEqual(img);
    const one = path.join(base, 'index.tar.gz');
    await pipeline(await driver.download(repo, parts, '/web/index.html'), (await import('node:fs')).createWriteStream(one));
    expect(execFileSync('tar', ['-tzf', one]).toString()).toBe('index.html\n');
  });

  it('restores a deleted file in place, byte for byte, and a copy into restored-<stamp>/ beside the live data', async () => {
    rmSync(path.join(tree.site, 'index.html'));
    writeFileSync(path.join(tree.site, 'img/logo.bin'), 'changed');
    const copy = await driver.restore(repo, { parts, part: 'web', path: '/img', target: 'copy', stamp: '20261202-0300' });
    expect(copy.result).toBe('restored-20261202-0300/img');
    expect(readFileSync(path.join(tree.site, 'img/logo.bin'), 'utf8')).toBe('changed');
    expect(digestTree(path.join(tree.site, 'restored-20261202-0300/img'))).toEqual(digestTree(path.join(base, 'unpacked/img')));
    await driver.restore(repo, { parts, part: 'web', path: '/', target: 'replace', stamp: 'x' });
    expect(digestTree(tree.site)).toEqual(before);
    // No staging folder is left beside the web folders.
    expect(readdirSync(tree.webRoot)).toEqual([REFERENCE]);
  });

  it('restores mail as a subscribed Maildir++ folder beside the live one, and in place', async () => {
    rmSync(path.join(tree.maildir, '.Sent'), { recursive: true });
    const copy = await driver.restore(repo, {
      parts,
      part: 'mail',
      path: `/${ADDRESS}`,
      target: 'copy',
      stamp: 's',
      mailFolderName: 'Restored 2026-12-02',
    });
    expect(copy.result).toBe('Restored 2026-12-02');
    expect(readdirSync(path.join(tree.maildir, '.Restored 2026-12-02/cur'))).toEqual(['1.m1:2,S']);
    expect(readdirSync(path.join(tree.maildir, '.Restored 2026-12-02.Sent/cur'))).toEqual(['2.m2:2,S']);
    expect(readFileSync(path.join(tree.maildir, 'subscriptions'), 'utf8')).toBe('Sent\nRestored 2026-12-02\nRestored 2026-12-02.Sent\n');
    await driver.restore(repo, { parts, part: 'mail', path: `/${ADDRESS}/Maildir/.Sent`, target: 'replace', stamp: 's' });
    expect(readFileSync(path.join(tree.maildir, '.Sent/cur/2.m2:2,S'), 'utf8')).toContain('segundo');
  });

  it('loads a database dump in place (dropped first) and as a copy under its own name', async () => {
    databases.data.set('shop_1', 'changed');
    await driver.restore(repo, { parts, part: 'db', path: '/shop_1', target: 'replace', stamp: 's' });
    expect(databases.data.get('shop_1')).toBe('DROP DATABASE IF EXISTS `shop_1`;\nCREATE TABLE t (a int);\nINSERT INTO t VALUES (1);\n');
    const copy = await driver.restore(repo, {
      parts,
      part: 'db',
      path: '/shop_1',
      target: 'copy',
      stamp: 's',
      copyDatabase: 'shop_1_r20261202',
    });
    expect(copy.result).toBe('shop_1_r20261202');
    expect(databases.data.get('shop_1_r20261202')).toContain('INSERT INTO t VALUES (1);');
  });

  it('forgets by the retention, keeping the last of each part, then drops, prunes and checks', async () => {
    const second = await driver.snapshot(repo, {
      tags: ['realm:demo', 'service:tienda.test'],
      host: 'panel',
      web: { reference: REFERENCE },
    });
    const { removed } = await driver.forget(repo, ['realm:demo', 'service:tienda.test'], { daily: 1, weekly: 0, monthly: 0 });
    // Both web snapshots are of one day: the older goes; every other part keeps its only one.
    expect(removed).toEqual([parts[0].snapshot]);
    await driver.drop(repo, [second.parts[0].snapshot]);
    await driver.prune(repo);
    expect(await driver.check(repo)).toBe(true);
    const left = resticJson(repo, ['snapshots']) as { id: string }[];
    expect(left.map((s) => s.id).sort()).toEqual(
      parts
        .slice(1)
        .map((p) => p.snapshot)
        .sort(),
    );
    expect(existsSync(path.join(base, 'cache'))).toBe(true);
    expect(statSync(repo.url).isDirectory()).toBe(true);
  });
});
