/**
 * Reference points beside the budgets, measured in the same run and the same way as the calls:
 * the bare server spending a fixed 10 and 30 µs of CPU per request (what a ratio leaves for a
 * handler's own work on this machine), and Fastify with one route, without and with the panel's
 * request log line (what the framework and the log take before the panel does anything). They explain the figures; they are
 * not budgets (decision 024).
 */
import { loadProcess, report } from './load.ts';
import { type Running, startBare, startFastifyBaseline } from './processes.ts';

const WORK_MICROS = [10, 30];

/** Loads `server` right after a fresh load of the bare baseline and prints both; returns its ratio. */
async function againstBare(bare: Running, server: Running, name: string, seconds: number) {
  const baseline = await loadProcess(bare, `http://127.0.0.1:${bare.port}/`, { seconds });
  report('bare node:http JSON (baseline)', baseline);
  const result = await loadProcess(server, `http://127.0.0.1:${server.port}/`, { seconds });
  report(name, result, baseline);
  return result.rps / baseline.rps;
}

async function referenceRatio(bare: Running, start: () => Promise<Running>, name: string, seconds: number) {
  const server = await start();
  try {
    return await againstBare(bare, server, name, seconds);
  } finally {
    await server.stop();
  }
}

/** The reference points, then each call's ratio restated against Fastify with the log line. */
export async function referencePoints(bare: Running, calls: { name: string; ratio: number }[], seconds: number) {
  console.log('\nReference points (not budgets), loaded the same way:');
  for (const micros of WORK_MICROS) {
    await referenceRatio(bare, () => startBare(micros), `bare node:http spending ${micros} µs per request`, seconds);
  }
  await referenceRatio(bare, () => startFastifyBaseline(false), 'Fastify, one route, no log line', seconds);
  const fastify = await referenceRatio(bare, startFastifyBaseline, "Fastify, one route, the panel's log line", seconds);
  console.log("Each call against that Fastify route (the panel's own share):");
  for (const call of calls) console.log(`  ${call.name.padEnd(42)} ${(call.ratio / fastify).toFixed(2)}×`);
}
