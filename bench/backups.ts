/**
 * Backups (issue 46, docs/decisions/062-backups-restic.md) of a service of 1 GB in 20,000 files, a
 * 200 MB mailbox and a 100 MB database (MariaDB through the mariadb driver, mail through the dovecot
 * driver's files), every figure against bare restic doing the same work in the same run:
 * - a full backup, from `POST /service/{id}/backups/` to its row done, against `restic init` and
 *   `restic backup` of the same folders and the same dump (`mariadb-dump` into `--stdin`) into a
 *   fresh repository, once before and once after the panel's (their spread is the machine's noise);
 * - an incremental one after 1 % of the files, messages and rows changed, against bare restic's
 *   incremental in both repositories, BENCH_BACKUP_ROUNDS times;
 * - a one-file restore (`POST …/restore/` copy) from the call to its row done, against
 *   `restic restore --include` of the same file from the same snapshot, BENCH_BACKUP_RESTORES times: p50, p99;
 * - a full web restore (copy of `/`) against `restic restore` of the same snapshot.
 * The panel is started as `npm start` starts it, in a process of its own; the calls come from this
 * one. Ratios are bare restic's time over the panel's: 1× is no overhead at all.
 *
 * BENCH_BACKUP_SCALE scales the data (0.1: 100 MB in 2,000 files…) for a quick run. Alone:
 * `node bench/backups.ts`; in `npm run bench` among the scenarios.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../apps/server/src/config/config.ts';
import type { BackupRepository } from '../apps/server/src/drivers/backups/interface.ts';
import { type Restic, runRestic } from '../apps/server/src/drivers/backups/run.ts';
import { mariaDbDriver } from '../apps/server/src/drivers/databases/mariadb.ts';
import { mysqlConnection } from '../apps/server/src/drivers/mysql.ts';
import { partsOf } from '../apps/server/src/modules/backups/snapshot.ts';
import { openStore, type Store } from '../apps/server/src/store/db.ts';
import { createAccount } from '../apps/server/test/fixtures.ts';
import { databaseData, MB, mailData, webData } from './backup-data.ts';
import { judge, type LoadResult, medianPair, type Pair, ratioOf } from './load.ts';
import { startAtalaya } from './processes.ts';

const SCALE = Number(process.env.BENCH_BACKUP_SCALE ?? 1);
const ROUNDS = Number(process.env.BENCH_BACKUP_ROUNDS ?? 3);
const RESTORES = Number(process.env.BENCH_BACKUP_RESTORES ?? 20);
const REFERENCE = 'backups.bench.test';
const MAILBOX = 'buzon';
const DSN = 'mysql://root@127.0.0.1:3306';
/** Every database the bench makes starts so: a run killed half-way leaves nothing another run would reuse. */
const PREFIX = 'bkbench_';
const RESTIC: Omit<Restic, 'cacheDir'> = { binary: '/usr/bin/restic' };

/**
 * The share of bare restic's speed the panel keeps (bare time / panel time), judged as bench/run.ts
 * judges its calls (load.ts `judge`): missed by more than the bare runs' own spread fails the run.
 * With one panel run between two bare ones, the median round is the one against the quicker bare
 * run. What the panel may cost beyond restic's own work: a backup runs restic once per part plus
 * `init` (an existing repository answers at once) and `snapshots --json`; a restore runs
 * `ls --json` before `restore`, and both go through the outbox (bench/LOG.md, 2026-12-02: 0.72×
 * and 0.62× for the backups, 0.38× and 0.88× for the restores at full scale, load 13–17).
 */
const BUDGET = { full: 0.7, incremental: 0.5, oneFile: 0.3, fullRestore: 0.6 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const loadLine = () => readFileSync('/proc/loadavg', 'utf8').trim();

/** A timed run as judge() reads it: one "request", its rate the inverse of its time, its time as p50 and p99. */
const run = (seconds: number): LoadResult => ({
  rps: 1 / seconds,
  p50: Math.round(seconds * 1000),
  p99: Math.round(seconds * 1000),
  errors: 0,
  total: 1,
});

async function timed(work: () => Promise<unknown>) {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

/** The bench's configuration: real MariaDB, the dovecot driver's files under the bench's folder, no limit on backups a day. */
function writeConfig(work: string) {
  const file = path.join(work, 'atalaya.config.json');
  const mail = path.join(work, 'mail');
  const config = {
    drivers: {
      databases: { driver: 'mariadb', dsn: DSN, prefix: PREFIX },
      mail: {
        driver: 'dovecot',
        mailRoot: path.join(mail, 'vmail'),
        passwdFile: path.join(mail, 'passwd'),
        aliasMap: path.join(mail, 'virtual'),
        dkimDir: path.join(mail, 'dkim'),
        dkimReload: [],
        dkimReloadEd25519: [],
        // The mailbox's password hash is no part of what is measured.
        hashMemoryKiB: 8192,
        hashTime: 1,
      },
    },
    backups: { perDay: 100 },
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return { file, mailRoot: config.drivers.mail.mailRoot };
}

/** The databases a run left behind (killed before its clean-up), and this run's at its end. */
async function dropBenchDatabases() {
  const driver = mariaDbDriver({ dsn: DSN, prefix: PREFIX });
  const c = await mysqlConnection({ host: '127.0.0.1', port: 3306, user: 'root' });
  try {
    const [rows] = await c.query('SELECT schema_name AS name FROM information_schema.schemata WHERE schema_name LIKE ?', [`${PREFIX}%`]);
    for (const { name } of rows as { name: string }[]) await driver.remove({ name, user: name });
  } finally {
    await c.end();
  }
}

/** Waits for a backup's or restore's row to be done; a failed one stops the bench with its reason. */
async function untilDone(store: Store, table: 'backup' | 'backup_restore', id: number) {
  for (;;) {
    const row = await store.selectFrom(table).select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow();
    if (row.status === 'done') return;
    if (row.status === 'failed') throw new Error(`${table} ${id} failed: ${row.error}`);
    await sleep(20);
  }
}

/** Waits for the outbox to have applied every job (the mailbox's, the database's, the service's web). */
async function untilJobsDone(store: Store, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const open = await store.selectFrom('job').select(['kind', 'status', 'last_error']).where('status', '<>', 'done').execute();
    const failed = open.find((job) => job.status === 'failed' || (Date.now() > until && job.last_error));
    if (failed) throw new Error(`job ${failed.kind} failed: ${failed.last_error}`);
    if (open.length === 0) return;
    if (Date.now() > until) throw new Error(`jobs still open: ${open.map((job) => job.kind).join(', ')}`);
    await sleep(50);
  }
}

/**
 * A guard judged as bench/run.ts judges its calls (load.ts `judge`), printed in seconds: each
 * round's ratio is bare restic's time over the panel's, and what bare restic's own time moved
 * between its runs is the machine's noise.
 */
function guard(name: string, pairs: Pair[], minRatio: number): string[] {
  const judged = judge({ minRatio }, pairs);
  const verdict = judged.met ? 'met' : judged.missed ? 'MISSED by more than the noise' : 'NOT met, within the noise';
  console.log(
    `    budget ≥ ${minRatio}×: ${verdict} (median ${ratioOf(medianPair(pairs)).toFixed(2)}×; noise: bare restic's time moved ${(100 * judged.spread).toFixed(0)}% between its runs)`,
  );
  // The panel's fixed cost (a restic run of ~1 s per part more) weighs more on less data: the
  // budgets are for the service, a smaller scale prints its verdict and fails nothing.
  if (judged.missed && SCALE < 1) console.log(`    (scale ${SCALE}: no verdict, the budgets are set for scale 1)`);
  return judged.missed && SCALE >= 1 ? [name] : [];
}

/** A measurement of single runs: the panel's time and bare restic's around it, then its guard. */
function report(name: string, pairs: Pair[], minRatio: number, detail: string): string[] {
  const list = (xs: number[]) => [...new Set(xs)].map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ');
  console.log(
    `  ${name}: panel ${list(pairs.map((p) => p.result.p50))}; bare restic ${list(pairs.map((p) => p.baseline.p50))} (${detail})`,
  );
  return guard(name, pairs, minRatio);
}

export async function backupsScenario(): Promise<string[]> {
  const missed: string[] = [];
  const work = mkdtempSync(path.join(tmpdir(), 'atalaya-bench-backups-'));
  const dataDir = path.join(work, 'data');
  const { file, mailRoot } = writeConfig(work);
  const env = { ATALAYA_CONFIG: file, ...(process.env.BENCH_BACKUP_PORT ? { PORT: process.env.BENCH_BACKUP_PORT } : {}) };
  const config = loadConfig({ ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '', ATALAYA_CONFIG: file });
  await dropBenchDatabases();
  // A realm of its own before the first start: the demo is not seeded, nothing else is backed up.
  const store = await openStore(config);
  const account = await createAccount(store, {
    users: { owner: 'all=write' },
    items: [{ reference: REFERENCE, service: 'normal', mail: true }],
  });
  const serviceId = account.items[REFERENCE]!;
  const server = await startAtalaya(dataDir, env);
  const base = `http://127.0.0.1:${server.port}/p247/service/${serviceId}`;
  const headers = await account.as('owner');
  const post = async (url: string, form?: Record<string, string>) => {
    const response = await fetch(`${base}${url}`, {
      method: 'POST',
      headers: form ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const body = await response.json();
    if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${JSON.stringify(body)}`);
    return body.data;
  };
  try {
    const files = Math.max(100, Math.round(20_000 * SCALE));
    const web = webData(path.join(config.dataDir, 'www', REFERENCE), files, Math.round(1024 * MB * SCALE));
    const mail = mailData(
      path.join(mailRoot, REFERENCE, MAILBOX, 'Maildir'),
      Math.max(10, Math.round(4_000 * SCALE)),
      Math.round(200 * MB * SCALE),
    );
    const { ddbb } = await post('/ddbb/create/', { password: 'Bench-password-1' });
    await post('/correo/create/', { name: MAILBOX, password: 'Bench-password-1' });
    await untilJobsDone(store);
    const db = databaseData(ddbb.bbdd, Math.round(100 * MB * SCALE));
    const made = await timed(() => Promise.all([web.create(), mail.create(), db.create()]));
    console.log(
      `\nBackups of one service (scale ${SCALE}: ${Math.round(1024 * SCALE)} MB in ${files} files, a ${Math.round(200 * SCALE)} MB mailbox of ${mail.count} messages, a ${Math.round(100 * SCALE)} MB database of ${db.rows} rows; random bytes, made in ${made.toFixed(1)} s)`,
    );
    console.log(`  restic 0.14.0, MariaDB, SQLite store, ${availableParallelism()} cores; /proc/loadavg ${loadLine()}`);

    const webFolder = path.join(config.dataDir, 'www', REFERENCE);
    const mailHome = path.join(mailRoot, REFERENCE, MAILBOX);
    const databases = mariaDbDriver({ dsn: DSN, prefix: PREFIX });
    const bareRepo = (name: string): BackupRepository & { restic: Restic } => ({
      url: path.join(work, `bare-${name}`),
      password: 'bench-bare-key',
      restic: { ...RESTIC, cacheDir: path.join(work, `bare-cache-${name}`) },
    });
    // Bare restic does what the driver does for the same data: one snapshot per part, the dump through --stdin.
    const bareBackup = async (repo: ReturnType<typeof bareRepo>) => {
      const backup = ['backup', '--json', '--host', 'bench'];
      await runRestic(repo.restic, repo, [...backup, webFolder]);
      await runRestic(repo.restic, repo, [...backup, mailHome]);
      await runRestic(repo.restic, repo, [...backup, '--stdin', '--stdin-filename', `${ddbb.bbdd}.sql`], {
        input: () => databases.dump(ddbb.bbdd),
      });
    };
    const panelBackup = async () => {
      let id = 0;
      const seconds = await timed(async () => {
        id = (await post('/backups/')).backup.id;
        await untilDone(store, 'backup', id);
      });
      return { id, seconds };
    };

    // (1) Full: bare restic into a fresh repository before and after the panel's first backup of the service.
    const [before, after] = [bareRepo('a'), bareRepo('b')];
    const bareFull = (repo: ReturnType<typeof bareRepo>) =>
      timed(async () => {
        await runRestic(repo.restic, repo, ['init']);
        await bareBackup(repo);
      });
    const fullBefore = await bareFull(before);
    const full = await panelBackup();
    const fullAfter = await bareFull(after);
    const fullPairs = [fullBefore, fullAfter].map((bare) => ({ baseline: run(bare), result: run(full.seconds) }));
    missed.push(...report('full backup, API call to its row done', fullPairs, BUDGET.full, 'init, then a backup per part'));

    // (2) Incremental: 1 % changed, then bare restic, the panel, bare restic again, each round.
    const incrementalPairs: Pair[] = [];
    let changedLine = '';
    for (let round = 0; round < ROUNDS; round++) {
      const [f, m, r] = await Promise.all([web.change(round), mail.change(round), db.change(round)]);
      changedLine = `each round ${f} files rewritten, ${m} messages delivered, ${r} rows rewritten`;
      const bare1 = await timed(() => bareBackup(before));
      const panel = await panelBackup();
      const bare2 = await timed(() => bareBackup(after));
      incrementalPairs.push({ baseline: run(bare1), result: run(panel.seconds) }, { baseline: run(bare2), result: run(panel.seconds) });
    }
    missed.push(...report(`incremental backup after 1 % changed, ${ROUNDS} rounds`, incrementalPairs, BUDGET.incremental, changedLine));

    // (3) One file restored as a copy, from the full backup's web snapshot, against bare restic's restore of it.
    const backupRow = await store.selectFrom('backup').select('parts').where('id', '=', full.id).executeTakeFirstOrThrow();
    const webSnapshot = partsOf(backupRow).find((p) => p.part === 'web')!.snapshot;
    const panelRepo = await panelRepository(work, config.dataDir, account.realm);
    const restoreTarget = path.join(config.dataDir, 'www', 'bench-bare-restore');
    const bareRestore = (include?: string) => {
      // The last run's files go before the clock starts, as the panel's copies do (clearCopies).
      rmSync(restoreTarget, { recursive: true, force: true });
      return timed(async () => {
        await runRestic(panelRepo.restic, panelRepo, [
          'restore',
          webSnapshot,
          '--target',
          restoreTarget,
          ...(include ? ['--include', include] : []),
        ]);
      });
    };
    const panelRestore = (form: Record<string, string>) =>
      timed(async () => {
        const { restore } = await post(`/backups/${full.id}/restore/`, { part: 'web', target: 'copy', ...form });
        await untilDone(store, 'backup_restore', restore.id);
      });
    const fileOf = (n: number) => web.name((n * 997) % files);
    // Untimed first runs: bare restic's cache of the panel's repository filled, as the panel's is.
    await bareRestore(path.join(webFolder, fileOf(RESTORES)));
    await panelRestore({ path: `/${fileOf(RESTORES)}` });
    const onePairs: Pair[] = [];
    for (let n = 0; n < RESTORES; n++) {
      const bare = await bareRestore(path.join(webFolder, fileOf(n)));
      const panel = await panelRestore({ path: `/${fileOf(n)}` });
      onePairs.push({ baseline: run(bare), result: run(panel) });
    }
    const sorted = (xs: number[]) => xs.sort((a, b) => a - b);
    const panelTimes = sorted(onePairs.map((p) => p.result.p50));
    const bareTimes = sorted(onePairs.map((p) => p.baseline.p50));
    console.log(
      `  one-file restore (copy), API call to its row done (${RESTORES}): p50 ${percentile(panelTimes, 50)} ms, p99 ${percentile(panelTimes, 99)} ms; bare restic restore --include: p50 ${percentile(bareTimes, 50)} ms, p99 ${percentile(bareTimes, 99)} ms`,
    );
    missed.push(...guard('one-file restore', onePairs, BUDGET.oneFile));

    // (4) The whole web root restored as a copy, against bare restic's restore of the same snapshot.
    const clearCopies = () => {
      for (const name of readdirSync(webFolder))
        if (name.startsWith('restored-')) rmSync(path.join(webFolder, name), { recursive: true, force: true });
    };
    clearCopies();
    const restoreBefore = await bareRestore();
    clearCopies();
    const restoreFull = await panelRestore({ path: '/' });
    const restoreAfter = await bareRestore();
    const restorePairs = [restoreBefore, restoreAfter].map((bare) => ({ baseline: run(bare), result: run(restoreFull) }));
    missed.push(
      ...report('full web restore (a copy of /), call to done', restorePairs, BUDGET.fullRestore, 'restic restore of the same snapshot'),
    );
    console.log(`  /proc/loadavg after: ${loadLine()}`);
  } finally {
    await server.stop();
    await store.destroy();
    await dropBenchDatabases().catch((error) => console.log(`  could not drop the bench's databases: ${error}`));
    rmSync(work, { recursive: true, force: true });
  }
  return missed;
}

/** The realm's repository and key as the operator reads them (`npm run admin -- backup-key`), with a cache of bare restic's own. */
async function panelRepository(work: string, dataDir: string, realm: string) {
  const out = execFileSync(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', 'apps/server/src/cli/main.ts', 'backup-key', realm],
    {
      cwd: path.resolve(import.meta.dirname, '..'),
      env: {
        ...process.env,
        ATALAYA_DATA_DIR: dataDir,
        DATABASE_URL: '',
        ATALAYA_CONFIG: path.join(work, 'atalaya.config.json'),
        ATALAYA_LOG_LEVEL: 'warn',
      },
      encoding: 'utf8',
    },
  );
  const url = /^repository: (.+)$/m.exec(out)?.[1];
  const password = /^key: (.+)$/m.exec(out)?.[1];
  if (!url || !password) throw new Error(`backup-key printed no repository and key:\n${out}`);
  mkdirSync(path.join(work, 'bare-cache-panel'), { recursive: true });
  return { url, password, restic: { ...RESTIC, cacheDir: path.join(work, 'bare-cache-panel') } };
}

if (import.meta.main) {
  const missed = await backupsScenario();
  if (missed.length > 0) {
    console.log(`BENCH FAILED: guards missed by more than the machine's noise: ${missed.join('; ')}`);
    process.exitCode = 1;
  }
}
