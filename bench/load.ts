/**
 * Load from a process of its own: autocannon's command line in a child process, so the load
 * generator never shares the measured server's event loop or CPU time slice.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const AUTOCANNON = path.join(path.dirname(createRequire(import.meta.url).resolve('autocannon/package.json')), 'autocannon.js');

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Requests answered in the run. */
  total: number;
  /** CPU time the loaded process spent per answered request, when the caller measured it. */
  cpuMicros?: number;
}

export interface LoadOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  seconds?: number;
  /** A number of requests to send instead of a duration. */
  requests?: number;
  connections?: number;
  /** Requests a second over all connections (autocannon's --overallRate); default as fast as answered. */
  rate?: number;
}

/**
 * Seconds of the same load run before each measured one and not counted: a call's code is compiled
 * by V8 only once it runs hot, and a server in use has long been past that. Without it the first
 * seconds of each call's run measured the compiler (decision 024).
 */
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

/** load() on a process of the bench's, after a warm-up, with the CPU time that process spent per request. */
export async function loadProcess(target: { cpuSeconds(): number }, url: string, options: LoadOptions = {}): Promise<LoadResult> {
  if (WARM_UP_SECONDS > 0) await load(url, { ...options, seconds: WARM_UP_SECONDS });
  const before = target.cpuSeconds();
  const result = await load(url, options);
  return { ...result, cpuMicros: ((target.cpuSeconds() - before) * 1e6) / Math.max(1, result.total) };
}

/** A bounded load on a loopback URL: fixed duration and connections, never another host. */
export async function load(url: string, options: LoadOptions = {}): Promise<LoadResult> {
  if (!/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(url)) throw new Error('benchmarks only target loopback');
  const args = [AUTOCANNON, '--json', '--no-progress', '-c', String(options.connections ?? 50)];
  args.push(...(options.requests ? ['-a', String(options.requests)] : ['-d', String(options.seconds ?? 5)]));
  if (options.rate) args.push('-R', String(options.rate));
  args.push('-m', options.method ?? 'GET');
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}=${value}`);
  const stdout = await new Promise<string>((resolve, reject) =>
    execFile(process.execPath, [...args, url], { maxBuffer: 16 * 1024 * 1024 }, (error, out) => (error ? reject(error) : resolve(out))),
  );
  const result = JSON.parse(stdout.slice(stdout.indexOf('{')));
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    total: result.requests.total,
  };
}

export const report = (name: string, r: LoadResult, baseline?: LoadResult) =>
  console.log(
    `${name.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s  p50 ${String(r.p50).padStart(3)} ms  p99 ${String(r.p99).padStart(4)} ms` +
      (baseline ? `  ratio ${(r.rps / baseline.rps).toFixed(2)}×` : '') +
      (r.cpuMicros ? `  CPU ${r.cpuMicros.toFixed(0).padStart(4)} µs/req` : '') +
      (r.cpuMicros && baseline?.cpuMicros ? ` (ratio ${(baseline.cpuMicros / r.cpuMicros).toFixed(2)}×)` : '') +
      (r.errors ? `  (${r.errors} errors)` : ''),
  );

/** One round of a call: the bare baseline, then the call, each loaded for the same time. */
export interface Pair {
  baseline: LoadResult;
  result: LoadResult;
}

export const ratioOf = (pair: Pair) => pair.result.rps / pair.baseline.rps;

/**
 * The round whose ratio is the median. On a shared machine the bare server's own req/s moves
 * within one run (decision 024), and a ratio of two runs a few seconds apart
 * took that swing with it; rounds of baseline and call, alternated, and their median keep one
 * swing from deciding the verdict. Every round's ratio is printed beside it.
 */
export function medianPair(pairs: Pair[]): Pair {
  const sorted = [...pairs].sort((a, b) => ratioOf(a) - ratioOf(b));
  return sorted[Math.floor((sorted.length - 1) / 2)];
}

export const roundsLine = (pairs: Pair[]) => pairs.map((pair) => `${ratioOf(pair).toFixed(2)}× (p99 ${pair.result.p99} ms)`).join(', ');

/** Above this spread of the bare server's CPU time per request, a run's machine was not steady. */
const STEADY_SPREAD = 0.1;

/**
 * How far the machine's own speed moved during a run. The bare server does the same work for every
 * request, so its CPU time per request moves only when the machine does: a neighbour on the host
 * taking the shared cache, the clock. The load average cannot see that (decision 024). Undefined
 * with fewer than two measured bare runs.
 */
export function machineDrift(bareRuns: LoadResult[]) {
  const micros = bareRuns.flatMap((run) => (run.cpuMicros ? [run.cpuMicros] : []));
  if (micros.length < 2) return undefined;
  const low = Math.min(...micros);
  const high = Math.max(...micros);
  return { low, high, runs: micros.length, spread: high / low - 1 };
}

export function driftLine(drift: NonNullable<ReturnType<typeof machineDrift>>) {
  const steady = drift.spread <= STEADY_SPREAD;
  return (
    `Bare server's CPU per request over the ${drift.runs} rounds: ${drift.low.toFixed(0)}–${drift.high.toFixed(0)} µs (+${(100 * drift.spread).toFixed(0)}%)` +
    (steady
      ? ', a steady machine'
      : `  WARNING: the machine's own speed moved more than ${100 * STEADY_SPREAD}% within the run: a ratio that close to its budget is no verdict`)
  );
}

/** What a call's guard asks (bench/calls.ts): a share of the bare server's req/s, and a p99 where it names one. */
export interface Guard {
  minRatio: number;
  maxP99?: number;
}

/**
 * A call's guard judged on its rounds, against the machine's own noise in the same rounds. The bare
 * server does the same work in every round, so what moves between its rounds is the machine:
 * - its req/s, from the slowest round to the fastest (`spread`, max/min − 1): a median ratio below
 *   the guard but within `minRatio / (1 + spread)` could be the machine alone;
 * - its slowest p99 (`bareP99`): the tail the machine added to a server doing nothing. A server
 *   that needs k times the bare server's CPU per request waits k times as long in each of the
 *   machine's stalls (the reference server spending 10 µs per request showed it: p99 15 ms
 *   against the bare server's 6 ms in one run), so a call's worst p99 above the guard by less
 *   than `bareP99 × k` (`tail`; k the median round's CPU ratio, at least 1) could be the machine.
 * `missed` is a guard missed by more than that noise (or any error): the run fails on it.
 * `met` is the guard kept outright; neither is a miss within the noise, printed, no verdict.
 */
export function judge(guard: Guard, pairs: Pair[]) {
  const bareRps = pairs.map((pair) => pair.baseline.rps);
  const spread = Math.max(...bareRps) / Math.min(...bareRps) - 1;
  const bareP99 = Math.max(...pairs.map((pair) => pair.baseline.p99));
  const median = medianPair(pairs);
  const ratio = ratioOf(median);
  const cpuRatio = median.result.cpuMicros && median.baseline.cpuMicros ? median.result.cpuMicros / median.baseline.cpuMicros : 1;
  const tail = bareP99 * Math.max(1, cpuRatio);
  const p99 = Math.max(...pairs.map((pair) => pair.result.p99));
  const errors = pairs.reduce((sum, pair) => sum + pair.result.errors, 0);
  const maxP99 = guard.maxP99 ?? Infinity;
  const met = ratio >= guard.minRatio && p99 <= maxP99 && errors === 0;
  const missed = ratio < guard.minRatio / (1 + spread) || p99 > maxP99 + tail || errors > 0;
  const verdict = met ? 'met' : missed ? 'MISSED by more than the noise' : 'NOT met, within the noise';
  const line =
    `  budget ≥ ${guard.minRatio}×${guard.maxP99 ? ` and p99 ≤ ${guard.maxP99} ms in every round` : ''}: ${verdict}` +
    ` (median ${ratio.toFixed(2)}×, worst p99 ${p99} ms${errors ? `, ${errors} errors` : ''};` +
    ` noise: bare req/s moved ${(100 * spread).toFixed(0)}% between rounds, its p99 up to ${bareP99} ms` +
    `${guard.maxP99 ? `, a tail of ${tail.toFixed(0)} ms at this call's CPU per request` : ''})`;
  return { met, missed, spread, tail, line };
}
