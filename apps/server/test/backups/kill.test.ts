import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, missingBinaries } from '../backends/harness/common.ts';
import { type Account, createAccount } from '../fixtures.ts';
import { eventually, type Launched, launch } from '../nodes/processes.ts';
import { describeStores, openTestStore } from '../stores.ts';
import { restic, writeWeb } from './area.ts';
import { digestTree, RESTIC } from './helpers.ts';

/**
 * The panel killed with SIGKILL in the middle of a backup and of a restore, as a machine losing
 * power or an OOM kill of the service's cgroup would (the panel and its restic child together):
 * restarted, the job's lease runs out and the worker takes it over to the end, the realm's
 * repository passes `restic check` with the key `backup-key` prints, and the live web root is the
 * old version or the restored one, byte for byte, never a mix.
 */
const skip = missingBinaries(RESTIC);
/** The jobs' lease as short as the config allows: a dead process's job is taken over in seconds. */
const LEASE_SECONDS = '2';
const REFERENCE = 'tienda.test';
/** A web root of a few MiB that do not compress: restic is still at work when the panel is killed. */
const BIG_FILES = 8;
const WEB_BYTES = BIG_FILES * (2 << 20);

/** The server's restic child running `subcommand`, by its pid; 0 if none. */
function resticChild(pid: number, subcommand: string) {
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    const children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(' ').filter(Boolean);
    for (const child of children.map(Number)) {
      const args = readFileSync(`/proc/${child}/cmdline`, 'utf8').split('\0');
      if (args[0] === RESTIC && args.includes(subcommand)) return child;
    }
  }
  return 0;
}

/** What a process has written so far (its write calls, to files and pipes alike); 0 once it is gone. */
function written(pid: number) {
  try {
    return Number(/^wchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

describe.skipIf(skip)('the panel killed mid-backup and mid-restore', () => {
  describeStores('restarted after SIGKILL on %s: the job completes, the repository checks, the web root is whole', (kind) => {
    let opened: Awaited<ReturnType<typeof openTestStore>>;
    let acc: Account;
    let id: number;
    let server: Launched | undefined;
    let port = 0;
    const env = () => ({
      ATALAYA_DATA_DIR: opened.config.dataDir,
      ...(opened.config.databaseUrl ? { DATABASE_URL: opened.config.databaseUrl } : {}),
      PORT: String(port),
      HOST: '127.0.0.1',
      ATALAYA_JOB_LEASE_SECONDS: LEASE_SECONDS,
      ATALAYA_CONFIG: path.join(opened.config.dataDir, 'atalaya.config.json'),
    });
    const site = () => path.join(opened.config.dataDir, 'www', REFERENCE);
    const start = async () => {
      server = launch('server', [], env());
      await server.waitFor(/Atalaya is running at/, 60_000);
    };
    /** A call to the running server over HTTP, as the SPA makes it. */
    const post = async (url: string, form: Record<string, string>) => {
      const response = await fetch(`http://127.0.0.1:${port}/p247${url}`, {
        method: 'POST',
        headers: { ...(await acc.as('admin')), 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form).toString(),
      });
      return { status: response.status, body: (await response.json()) as { data: Record<string, { id: number }> } };
    };
    const status = async (table: 'backup' | 'backup_restore', rowId: number) =>
      (await opened.store.selectFrom(table).select('status').where('id', '=', rowId).executeTakeFirstOrThrow()).status;

    /**
     * Kills the server and its restic child with SIGKILL once restic runs `subcommand` and has
     * written `bytes` (a third of the web root: halfway through, whatever it writes where).
     */
    async function killDuring(subcommand: string, bytes = WEB_BYTES / 3) {
      const pid = server!.child.pid!;
      const deadline = Date.now() + 30_000;
      let child = 0;
      // Read from /proc every few ms (no `ps` to start): a restore of a few MiB is over in a moment.
      while (!child) {
        if (Date.now() > deadline) throw new Error(`restic ${subcommand} never seen at work:\n${server!.output()}`);
        child = resticChild(pid, subcommand);
        if (child && written(child) < bytes) child = 0;
        if (!child) await new Promise((resolve) => setTimeout(resolve, 5));
      }
      process.kill(pid, 'SIGKILL');
      process.kill(child, 'SIGKILL');
      await server!.exited;
      server = undefined;
      // Gone for good, reaped by init: until then its pid still answers, and restic takes its lock for a live one's.
      await eventually(async () => !existsSync(`/proc/${child}`), 20_000, 'the killed restic reaped');
    }

    beforeAll(async () => {
      port = await freePort();
      opened = await openTestStore(kind);
      acc = await createAccount(opened.store, { users: { admin: 'all=write' }, items: [{ reference: REFERENCE, service: 'normal' }] });
      id = acc.items[REFERENCE]!;
      // No nightly backup queued by the schedule while the test runs, whatever the hour.
      writeFileSync(env().ATALAYA_CONFIG, JSON.stringify({ backups: { enabled: false } }));
      const ctx = { config: opened.config } as Parameters<typeof writeWeb>[0];
      writeWeb(ctx, REFERENCE, {
        'index.html': '<h1>tienda</h1>\n',
        ...Object.fromEntries(Array.from({ length: BIG_FILES }, (_, i) => [`img/big-${i}.bin`, randomBytes(2 << 20)])),
      });
      await start();
    }, 90_000);
    afterAll(async () => {
      if (server) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
      await opened?.cleanup();
    });

    it('completes a backup whose panel was killed halfway once restarted, and leaves the web root untouched', async () => {
      const before = digestTree(site());
      const made = await post(`/service/${id}/backups/`, {});
      expect(made.status).toBe(200);
      const backupId = made.body.data.backup!.id;
      const repository = path.join(opened.config.dataDir, 'backups', acc.realm);
      const locks = path.join(repository, 'locks');
      await killDuring('backup');
      expect(readdirSync(locks).length).toBeGreaterThan(0);
      expect(await status('backup', backupId)).toBe('running');
      await start();
      // The job is done once the worker that took it over (its lease run out) returned; the row said so just before.
      const jobOf = () =>
        opened.store
          .selectFrom('job')
          .innerJoin('backup', 'backup.job_id', 'job.id')
          .select('job.status')
          .where('backup.id', '=', backupId)
          .executeTakeFirstOrThrow();
      await eventually(async () => (await jobOf()).status === 'done', 60_000, 'the backup job taken over to the end');
      expect(await status('backup', backupId)).toBe('done');
      expect(digestTree(site())).toEqual(before);
    }, 120_000);

    it('puts the web root back whole after a restore whose panel was killed halfway, and the repository checks', async () => {
      const saved = digestTree(site());
      const [backup] = await opened.store.selectFrom('backup').select('id').where('status', '=', 'done').execute();
      // The live version the restore replaces.
      writeFileSync(path.join(site(), 'img/big-0.bin'), 'changed after the backup');
      writeFileSync(path.join(site(), 'new.txt'), 'added after the backup');
      const changed = digestTree(site());
      const asked = await post(`/service/${id}/backups/${backup!.id}/restore/`, { part: 'web', path: '/', target: 'replace' });
      expect(asked.status).toBe(200);
      const restoreId = asked.body.data.restore!.id;
      const webRoot = path.dirname(site());
      // Killed while restic writes the staging folder beside the live one.
      await killDuring('restore');
      expect(digestTree(site())).toEqual(changed);
      await start();
      await eventually(async () => (await status('backup_restore', restoreId)) === 'done', 60_000, 'the restore taken over to the end');
      expect(digestTree(site())).toEqual(saved);
      expect(readdirSync(webRoot)).toEqual([REFERENCE]);

      // The operator's key opens the realm's repository, which restic finds whole.
      const cli = launch('cli', ['backup-key', acc.realm], env());
      expect(await cli.exited).toBe(0);
      const url = /^repository: (.+)$/m.exec(cli.output())![1]!;
      const key = /^key: (.+)$/m.exec(cli.output())![1]!;
      expect(url).toBe(path.join(opened.config.dataDir, 'backups', acc.realm));
      // The killed restic runs left their locks; `unlock` removes only such stale ones (docs/backups.md).
      await restic(url, key, ['unlock']);
      expect(readdirSync(path.join(url, 'locks'))).toEqual([]);
      await restic(url, key, ['check']);
      const snapshots = JSON.parse(await restic(url, key, ['snapshots', '--json', '--tag', 'part:web'])) as unknown[];
      // The first backup's, the restore's own backup of what it replaced; a killed run may have left one more, never fewer.
      expect(snapshots.length).toBeGreaterThanOrEqual(2);
    }, 120_000);
  });
});
