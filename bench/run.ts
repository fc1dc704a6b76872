/**
 * `npm run bench`: the panel as users run it. The server is started as `npm start` starts it (same
 * Node flags, request logging on, demo data on SQLite, a temporary data dir) in a process of its
 * own; autocannon loads it from another process; the bare node:http baseline runs in a third and
 * is loaded the same way, right before each call, so every ratio compares two runs a few seconds
 * apart on the same machine; three such rounds per call (`BENCH_ROUNDS`), judged on the median.
 * Each process's CPU time per request is printed too: on a busy machine req/s fall with the
 * others' load, CPU µs per request much less. Reference points
 * (bench/references.ts) follow the calls: they say what the ratios leave for the panel's own work.
 * Each guard is judged against the machine's own noise in the same run (load.ts `judge`): a guard
 * missed by more than it, the idle RSS budget missed at all, or the soak's (bench/soak.ts) missed
 * by more than the idle server's spread, fail the run with a `BENCH FAILED` line and a non-zero exit.
 * `node bench/run.ts --calls` stops after the calls and the idle memory (`--calls --soak` adds the
 * soak). A completed run appends
 * what it printed to the benchmark log (bench/log.ts; `BENCH_LOG=off` skips it).
 */
import { availableParallelism, loadavg } from 'node:os';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { openStore } from '../apps/server/src/store/db.ts';
import { callsFor, loadOptions } from './calls.ts';
import { demoDomainRead } from './domain.ts';
import { driftLine, judge, type LoadResult, loadProcess, machineDrift, medianPair, type Pair, report, roundsLine } from './load.ts';
import { appendToLog, commandLine, currentCommit, logTarget, recordConsole } from './log.ts';
import { benchDataDir, startAtalaya, startBare, startFlags } from './processes.ts';
import { referencePoints } from './references.ts';
import { SCENARIOS } from './scenarios.ts';
import { soak } from './soak.ts';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const idleSeconds = Number(process.env.BENCH_IDLE_SECONDS ?? 10);
const IDLE_RSS_BUDGET = 150;
const cores = availableParallelism();
const logFile = logTarget();
const printed = recordConsole();
const loadBefore = loadavg()[0];
let completed = false;
/** The guards missed by more than the machine's own noise (load.ts `judge`): any fails the run. */
const missed: string[] = [];

/** The load average, flagged when the machine was busy: figures taken then are not the server's own. */
function machineLoad(when: 'before' | 'after') {
  const [one, five] = loadavg();
  const figures = when === 'before' ? 'the figures below' : 'the figures above';
  const busy = one > cores ? `  WARNING: busy machine (> 1 per core): ${figures} understate the server` : '';
  console.log(`Load average ${when}: ${one.toFixed(2)} (1 min), ${five.toFixed(2)} (5 min) on ${cores} cores${busy}`);
}

const data = benchDataDir();
try {
  console.log(
    `Atalaya bench: ${seconds} s per run, 50 connections, SQLite store, Node ${process.version}, flags ${startFlags().join(' ')}`,
  );
  machineLoad('before');
  // The first start seeds the demo realm; the second is what a restarted server holds idle.
  await (await startAtalaya(data.dir)).stop();
  const server = await startAtalaya(data.dir);
  const bare = await startBare();
  const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: data.dir, DATABASE_URL: '' }));
  try {
    await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
    const idle = server.rssMb();
    console.log(
      `Server idle RSS ${idleSeconds} s after a start on SQLite: ${idle.toFixed(0)} MB (budget < ${IDLE_RSS_BUDGET} MB${idle < IDLE_RSS_BUDGET ? '' : ', MISSED'})\n`,
    );
    // Memory does not move with the machine's speed: the budget is judged as it stands.
    if (idle >= IDLE_RSS_BUDGET) missed.push(`idle RSS ${idle.toFixed(0)} MB`);

    const { row, headers } = await demoDomainRead(store);
    const base = `http://127.0.0.1:${server.port}`;
    let baseline: LoadResult | undefined;
    const measured: { name: string; result: LoadResult }[] = [];
    const bareRuns: LoadResult[] = [];
    for (const call of callsFor(row.itemId)) {
      const pairs: Pair[] = [];
      for (let round = 0; round < rounds; round++) {
        const bareRun = await loadProcess(bare, `http://127.0.0.1:${bare.port}/`, { seconds });
        const callRun = await loadProcess(server, `${base}${call.path}`, loadOptions(call, headers, seconds));
        pairs.push({ baseline: bareRun, result: callRun });
        bareRuns.push(bareRun);
      }
      const median = medianPair(pairs);
      baseline = median.baseline;
      report('bare node:http JSON (baseline)', median.baseline);
      report(call.name, median.result, median.baseline);
      measured.push({ name: call.name, result: median.result });
      if (rounds > 1) console.log(`  ${rounds} rounds, the median one above: ${roundsLine(pairs)}`);
      const verdict = judge(call, pairs);
      console.log(verdict.line);
      if (verdict.missed) missed.push(call.name);
    }
    console.log(`Server RSS after the load: ${server.rssMb().toFixed(0)} MB`);
    const drift = machineDrift(bareRuns);
    if (drift) console.log(driftLine(drift));
    await referencePoints(bare, measured, seconds);
    if (baseline && !process.argv.includes('--calls')) {
      for (const scenario of SCENARIOS) {
        const missedThere = await scenario({ base, store, baseline, seconds });
        if (Array.isArray(missedThere)) missed.push(...missedThere);
      }
    }
  } finally {
    await store.destroy();
    await server.stop();
    await bare.stop();
  }
  // On a server of its own, after the others: what the load leaves in memory is the soak's alone.
  if (!process.argv.includes('--calls') || process.argv.includes('--soak')) {
    if (!(await soak())) missed.push('soak memory');
  }
  machineLoad('after');
  completed = true;
} finally {
  data.dispose();
  printed.stop();
  if (completed && logFile) {
    const load = { before: loadBefore, after: loadavg()[0], cores };
    appendToLog(logFile, {
      date: new Date(),
      commit: currentCommit(),
      command: commandLine(process.argv.slice(2)),
      load,
      lines: printed.lines,
    });
    console.log(`Figures added to ${logFile instanceof URL ? logFile.pathname : logFile}`);
  }
}
if (missed.length > 0) {
  console.log(`BENCH FAILED: guards missed by more than the machine's noise: ${missed.join('; ')}`);
  process.exitCode = 1;
}
