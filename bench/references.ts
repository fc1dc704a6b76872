/**
 * Reference points beside the budgets, measured in the same run and the same way as the calls:
 * the bare server spending a fixed 10 and 30 µs of CPU per request (what a ratio leaves for a
 * handler's own work on this machine), and Fastify with one route, without and with the panel's
 * request log line (what the framework and the log take before the panel does anything). They explain the figures; they are
 * not budgets (decision 024).
 */
import { type LoadResult, loadProcess, report } from './load.ts';
import { type Running, startBare, startFastifyBaseline } from './processes.ts';

const WORK_MICROS = [10, 30];

/** Loads `reference` right after a fresh load of the bare baseline, prints both, and stops it. */
async function measureReference(bare: Running, start: () => Promise<Running>, name: string, seconds: number) {
  const reference = await start();
  try {
    const baseline = await loadProcess(bare, `http://127.0.0.1:${bare.port}/`, { seconds });
    report('bare node:http JSON (baseline)', baseline);
    const result = await loadProcess(reference, `http://127.0.0.1:${reference.port}/`, { seconds });
    report(name, result, baseline);
    return result;
  } finally {
    await reference.stop();
  }
}

/**
 * The reference points, then each call's CPU time per request against the Fastify route's: the
 * share of the panel's own work. CPU time, not req/s, because it moves least with the machine's
 * other load.
 */
export async function referencePoints(bare: Running, calls: { name: string; result: LoadResult }[], seconds: number) {
  console.log('\nReference points (not budgets), loaded the same way:');
  for (const micros of WORK_MICROS) {
    await measureReference(bare, () => startBare(micros), `bare node:http spending ${micros} µs per request`, seconds);
  }
  await measureReference(bare, () => startFastifyBaseline(false), 'Fastify, one route, no log line', seconds);
  const fastify = await measureReference(bare, startFastifyBaseline, "Fastify, one route, the panel's log line", seconds);
  console.log("CPU µs per request of that Fastify route against each call's (1× = the panel adds nothing):");
  for (const { name, result } of calls) {
    console.log(`  ${name.padEnd(42)} ${((fastify.cpuMicros ?? 0) / (result.cpuMicros ?? 1)).toFixed(2)}×`);
  }
}
