/**
 * docs/decisions/047-service-move.md: the speed of jobs applied through node agents, with the panel
 * and two agents as processes and each node in its own network namespace with its own nginx and
 * Dovecot (the tests' set-up, apps/server/test/nodes/cluster.ts; SQLite store):
 * - jobs per second through one agent and through two (BENCH_NODE_JOBS services, one web job each,
 *   queued at once: the claim, the call to the agent, its nginx driver's write and the answer);
 * - a new site from the API's answer to the node's nginx answering for it (BENCH_NODE_SITES
 *   sites, one after another, `POST /service/:id/subdomain/create/` as the SPA sends it), p50 and p99;
 * - a new mailbox from the API's answer to an IMAP login to it on the node's Dovecot
 *   (BENCH_NODE_MAILBOXES mailboxes, one after another, `POST /service/:id/correo/create/`), p50 and p99;
 * - `service-move` of a service whose web root holds BENCH_NODE_MOVE_MB MB (random bytes, 20 files a
 *   MB, as bench/backups.ts makes them) from web1 to web2, from the call the CLI makes (queueMove)
 *   until the job is done and web2's nginx serves the site: streamed through the panel
 *   (`backups.moveBySnapshot: false`, decision 047) and by a backup and a restore (decision 064),
 *   each in a cluster of its own started alike, with the ratio and /proc/loadavg before each.
 *
 * Alone: `node bench/nodes.ts` (needs root for the namespaces, else loopback addresses).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createItem } from '../apps/server/src/modules/provisioning/accounts.ts';
import { enqueueWeb } from '../apps/server/src/modules/service/jobs.ts';
import { queueMove } from '../apps/server/src/modules/service/move.ts';
import { imapLogin } from '../apps/server/test/backends/harness/dovecot.ts';
import { createAccount } from '../apps/server/test/fixtures.ts';
import { type Cluster, startCluster } from '../apps/server/test/nodes/cluster.ts';
import { openTestStore } from '../apps/server/test/stores.ts';
import { MB, webData } from './backup-data.ts';

const JOBS = Number(process.env.BENCH_NODE_JOBS ?? 200);
const SITES = Number(process.env.BENCH_NODE_SITES ?? 40);
const MAILBOXES = Number(process.env.BENCH_NODE_MAILBOXES ?? 40);
const MOVE_MB = Number(process.env.BENCH_NODE_MOVE_MB ?? 200);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

type Opened = Awaited<ReturnType<typeof openTestStore>>;

/** Queues one web job for each of `count` services spread over `nodes`, all at once, and times them until the last is done. */
async function jobsPerSecond(opened: Opened, realm: string, nodes: string[], count: number, tag: string) {
  const items: number[] = [];
  for (let i = 0; i < count; i++) {
    const node = nodes[i % nodes.length]!;
    items.push((await createItem(opened.store, { realm, reference: `${tag}${i}.bench.test`, service: 'normal', node })).id);
  }
  const t0 = performance.now();
  const ids = await opened.store.transaction().execute(async (trx) => {
    const out: number[] = [];
    for (const item of items) out.push(await enqueueWeb(trx, item));
    return out;
  });
  for (;;) {
    const left = await opened.store
      .selectFrom('job')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', 'in', ids)
      .where('status', '<>', 'done')
      .executeTakeFirstOrThrow();
    if (Number(left.n) === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const seconds = (performance.now() - t0) / 1000;
  console.log(`  ${count} web jobs through ${nodes.length} agent(s): ${seconds.toFixed(2)} s, ${(count / seconds).toFixed(1)} jobs/s`);
}

/** A service on web1 and a writer's headers for the API, as the SPA sends its forms. */
async function serviceOnWeb1(opened: Opened, reference: string) {
  const account = await createAccount(opened.store, {
    users: { owner: 'all=write' },
    items: [{ reference, service: 'normal', mail: true, node: 'web1' }],
  });
  const headers = { ...(await account.as('owner')), 'content-type': 'application/x-www-form-urlencoded' };
  return { id: account.items[reference]!, headers };
}

/**
 * `count` changes one after another through the API, each timed from the answer until `live(i)`
 * says the node serves it; prints p50 and p99.
 */
async function timeToLive(what: string, count: number, change: (i: number) => Promise<Response>, live: (i: number) => Promise<boolean>) {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await change(i);
    const answered = performance.now();
    if (!response.ok) throw new Error(`${what}: the API answered ${response.status}: ${await response.text()}`);
    while (!(await live(i))) await new Promise((resolve) => setTimeout(resolve, 5));
    times.push(performance.now() - answered);
  }
  times.sort((a, b) => a - b);
  console.log(`  ${what} (${count}): p50 ${percentile(times, 50).toFixed(0)} ms, p99 ${percentile(times, 99).toFixed(0)} ms`);
}

/** New sites, each timed from the API's answer until the node's nginx serves its page. */
async function siteToLive(opened: Opened, cluster: Cluster, base: string) {
  const reference = 'live.bench.test';
  const { id, headers } = await serviceOnWeb1(opened, reference);
  await timeToLive(
    'new site, API answer to nginx on the node serving it',
    SITES,
    (i) => {
      // The page is there before the site: "live" is nginx answering for the new host with it.
      mkdirSync(path.join(cluster.webRoot('web1', reference), `s${i}`), { recursive: true });
      writeFileSync(path.join(cluster.webRoot('web1', reference), `s${i}`, 'index.html'), `site ${i}\n`);
      const body = new URLSearchParams({ subDomain: `s${i}`, folder: `s${i}` }).toString();
      return fetch(`${base}/p247/service/${id}/subdomain/create/`, { method: 'POST', headers, body });
    },
    async (i) => (await cluster.served('web1', `s${i}.${reference}`)).startsWith(`site ${i}`),
  );
}

/**
 * New mailboxes, each timed from the API's answer until an IMAP login to it succeeds on the node's
 * Dovecot; and until the node's passwd-file holds it (the panel's part). Dovecot rereads that file
 * at most once a second and answers a failed login after half a second, so the login figure is
 * mostly Dovecot's.
 */
async function mailboxToLive(opened: Opened, cluster: Cluster, base: string) {
  const reference = 'mail.bench.test';
  const { id, headers } = await serviceOnWeb1(opened, reference);
  const { dovecot, net } = cluster.nodes.web1!;
  const inFile: number[] = [];
  let answered = 0;
  await timeToLive(
    'new mailbox, API answer to an IMAP login on the node',
    MAILBOXES,
    (i) => {
      const body = new URLSearchParams({ name: `m${i}`, password: 'Clave-segura-1' }).toString();
      return fetch(`${base}/p247/service/${id}/correo/create/`, { method: 'POST', headers, body }).finally(() => {
        answered = performance.now();
      });
    },
    async (i) => {
      if (inFile.length === i) {
        if (!readFileSync(String(dovecot.options.passwdFile), 'utf8').includes(`m${i}@${reference}:`)) return false;
        inFile.push(performance.now() - answered);
      }
      return imapLogin(dovecot.imapPort, `m${i}@${reference}`, 'Clave-segura-1', net.address);
    },
  );
  inFile.sort((a, b) => a - b);
  console.log(
    `  new mailbox, API answer to the node's passwd-file holding it (${MAILBOXES}): p50 ${percentile(inFile, 50).toFixed(0)} ms, p99 ${percentile(inFile, 99).toFixed(0)} ms`,
  );
}

const loadLine = () => readFileSync('/proc/loadavg', 'utf8').trim();

/** Polls `done` every 50 ms until it holds. */
async function until(done: () => Promise<boolean>) {
  while (!(await done())) await new Promise((resolve) => setTimeout(resolve, 50));
}

/**
 * One `service-move` of a service of MOVE_MB MB from web1 to web2 in a fresh store and cluster (a
 * node is enrolled once per store), the panel started with `backups.moveBySnapshot` as given:
 * seconds from queueMove until the job is done and web2's nginx serves the site's page.
 */
async function timedMove(bySnapshot: boolean) {
  const opened = await openTestStore('sqlite');
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster(opened, ['web1', 'web2'], { ATALAYA_LOG_LEVEL: 'warn' }, { backups: { moveBySnapshot: bySnapshot } });
    const base = `http://127.0.0.1:${(await cluster.panel.waitFor(/Atalaya is running at http:\/\/localhost:(\d+)\//, 5000))[1]}`;
    const reference = 'move.bench.test';
    const { id, headers } = await serviceOnWeb1(opened, reference);
    const root = cluster.webRoot('web1', reference);
    mkdirSync(path.join(root, 'public'), { recursive: true });
    writeFileSync(path.join(root, 'public', 'index.html'), 'the moved site\n');
    await webData(path.join(root, 'data'), Math.max(1, MOVE_MB * 20), MOVE_MB * MB).create();
    const body = new URLSearchParams({ subDomain: 'www', folder: 'public' }).toString();
    const created = await fetch(`${base}/p247/service/${id}/subdomain/create/`, { method: 'POST', headers, body });
    if (!created.ok) throw new Error(`the site: the API answered ${created.status}: ${await created.text()}`);
    const serves = (node: string) => async () => (await cluster!.served(node, `www.${reference}`)).startsWith('the moved site');
    await until(serves('web1'));
    const load = loadLine();
    const t0 = performance.now();
    const job = await queueMove(opened.store, reference, 'web2');
    await until(async () => {
      const row = await opened.store.selectFrom('job').select(['status', 'last_error']).where('id', '=', job).executeTakeFirstOrThrow();
      if (row.status === 'failed') throw new Error(`the move failed: ${row.last_error}`);
      return row.status === 'done';
    });
    await until(serves('web2'));
    const seconds = (performance.now() - t0) / 1000;
    // The way it went: a move by snapshot leaves its backup's row (reason move) on the job.
    const backup = await opened.store.selectFrom('backup').select('id').where('job_id', '=', job).executeTakeFirst();
    if (Boolean(backup) !== bySnapshot) throw new Error(`the move went ${backup ? 'by a snapshot' : 'streamed'}, not as configured`);
    return { seconds, load };
  } finally {
    await cluster?.stop();
    await opened.cleanup();
  }
}

/** The move streamed through the panel, then by a backup and a restore, in the same run; the ratio is the streamed time over the snapshot's. */
async function moveTimes() {
  console.log(`  service-move of a service of ${MOVE_MB} MB in ${MOVE_MB * 20} files, web1 to web2, queued to web2 serving it:`);
  const streamed = await timedMove(false);
  console.log(`    streamed through the panel: ${streamed.seconds.toFixed(1)} s (load ${streamed.load})`);
  const snapshot = await timedMove(true);
  console.log(`    by a backup and a restore:  ${snapshot.seconds.toFixed(1)} s (load ${snapshot.load})`);
  console.log(`    ratio streamed / by snapshot: ${(streamed.seconds / snapshot.seconds).toFixed(2)}×`);
}

export async function nodesScenario() {
  const opened = await openTestStore('sqlite');
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster(opened, ['web1', 'web2'], { ATALAYA_LOG_LEVEL: 'warn' });
    const kind = cluster.nodes.web1!.net.kind === 'namespace' ? 'a network namespace each' : 'loopback addresses';
    console.log(`Nodes (panel and two agents as processes, ${kind}, real nginx, SQLite):`);
    const base = `http://127.0.0.1:${(await cluster.panel.waitFor(/Atalaya is running at http:\/\/localhost:(\d+)\//, 5000))[1]}`;
    const realm = (await createAccount(opened.store, { users: {}, items: [] })).realm;
    await jobsPerSecond(opened, realm, ['web1'], JOBS, 'one');
    await jobsPerSecond(opened, realm, ['web1', 'web2'], JOBS, 'two');
    await siteToLive(opened, cluster, base);
    await mailboxToLive(opened, cluster, base);
  } finally {
    await cluster?.stop();
    await opened.cleanup();
  }
  if (MOVE_MB > 0) await moveTimes();
}

if (import.meta.main) await nodesScenario();
