import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BackupRepository } from '../../src/drivers/backups/interface.ts';
import { recoverInterrupted } from '../../src/drivers/backups/place.ts';
import { resticDriver } from '../../src/drivers/backups/restic.ts';
import { missingBinaries } from '../backends/harness/common.ts';
import { digestTree, makeTree, REFERENCE, RESTIC } from './helpers.ts';

/**
 * restic killed with SIGKILL in the middle of a snapshot and of a restore: its lock stays in the
 * repository, and the next run still completes (the stale lock removed), `restic check` passes,
 * and the live web folder is the old version or the restored one, never a mix.
 */
const skip = missingBinaries(RESTIC);

/** Kills (by its pid) this process's restic child running `subcommand` once `ready` holds. */
async function killRestic(subcommand: string, ready: () => boolean = () => true) {
  for (let i = 0; i < 1000; i++) {
    const children = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)]).toString();
    const line = children.split('\n').find((l) => l.includes(RESTIC) && l.includes(` ${subcommand} `));
    if (line && ready()) {
      process.kill(Number(line.trim().split(/\s+/)[0]), 'SIGKILL');
      return true;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

describe.skipIf(skip)('restic killed mid-run', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'atalaya-restic-kill-'));
  const tree = makeTree(base);
  // Enough data that restic is still at work when it is killed: a few MiB that do not compress.
  for (let i = 0; i < 6; i++) writeFileSync(path.join(tree.site, `big-${i}.bin`), randomBytes(4 * 1024 * 1024));
  const repo: BackupRepository = { url: path.join(base, 'repo'), password: 'kill-key' };
  const driver = resticDriver({
    restic: { binary: RESTIC, cacheDir: path.join(base, 'cache') },
    webRoot: tree.webRoot,
    mailRoot: tree.mailRoot,
    databases: () => undefined,
  });
  const spec = { tags: ['realm:kill'], host: 'web1', web: { reference: REFERENCE } };
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('completes the snapshot after one killed halfway, prunes through its stale lock, and the repository checks', async () => {
    await driver.ensureRepository(repo);
    const killed = driver.snapshot(repo, spec).then(
      () => 'finished',
      (e) => String(e),
    );
    expect(await killRestic('backup', () => readdirSync(path.join(repo.url, 'locks')).length > 0)).toBe(true);
    expect(await killed).not.toBe('finished');
    expect(readdirSync(path.join(repo.url, 'locks')).length).toBe(1);
    const { parts } = await driver.snapshot(repo, spec);
    expect(parts.map((p) => p.part)).toEqual(['web']);
    // A backup's lock is shared, so the dead one stopped no backup; prune needs the repository to
    // itself and meets it: the driver removes the stale lock (`restic unlock`) and prunes.
    expect(readdirSync(path.join(repo.url, 'locks')).length).toBe(1);
    await driver.prune(repo);
    expect(readdirSync(path.join(repo.url, 'locks'))).toEqual([]);
    expect(await driver.check(repo)).toBe(true);
  });

  it('leaves the live folder whole when a restore is killed, and the next restore completes', async () => {
    const { parts } = await driver.snapshot(repo, spec);
    const saved = digestTree(tree.site);
    writeFileSync(path.join(tree.site, 'big-0.bin'), 'changed after the backup');
    const changed = digestTree(tree.site);
    const killed = driver.restore(repo, { parts, part: 'web', path: '/', target: 'replace', stamp: 'x' }).then(
      () => 'finished',
      (e) => String(e),
    );
    // Killed while restic writes the staging folder: some of it restored, not all.
    const staged = () => readdirSync(tree.webRoot).some((n) => n.startsWith('.atalaya-restore-'));
    expect(await killRestic('restore', staged)).toBe(true);
    expect(await killed).not.toBe('finished');
    expect(digestTree(tree.site)).toEqual(changed);
    await driver.restore(repo, { parts, part: 'web', path: '/', target: 'replace', stamp: 'x' });
    expect(digestTree(tree.site)).toEqual(saved);
    expect(readdirSync(tree.webRoot)).toEqual([REFERENCE]);
    expect(await driver.check(repo)).toBe(true);
  });

  it('puts the old version back when a restore died between moving it aside and renaming the new one in', async () => {
    const before = digestTree(tree.site);
    // What a process killed between the two renames leaves: the journal, the old folder aside, no live folder.
    const staging = path.join(tree.webRoot, '.atalaya-restore-0123456789abcdef');
    mkdirSync(path.join(staging, 'data'), { recursive: true });
    writeFileSync(path.join(staging, 'journal.json'), JSON.stringify({ target: tree.site }));
    execFileSync('mv', [tree.site, path.join(staging, 'old')]);
    await recoverInterrupted(tree.webRoot);
    expect(digestTree(tree.site)).toEqual(before);
    expect(readdirSync(tree.webRoot)).toEqual([REFERENCE]);
    expect(readFileSync(path.join(tree.site, 'index.html'), 'utf8')).toContain('tienda');
  });
});
