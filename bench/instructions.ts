/**
 * `node bench/instructions.ts [checkout…]`: the instructions the server's process executes per
 * request of a call, counted by valgrind's callgrind (Debian's `valgrind` package), for each
 * checkout named (a git worktree of another commit, say; default this one).
 *
 * Why: on a shared guest, the CPU time of the same request moves from one minute to the next by
 * more than a small change is worth, so such a change cannot be seen in time (decision 024). The count
 * of instructions does not move with the neighbours. It leaves out the kernel's share (the socket
 * writes), so it says which of two versions does less work, not how fast either runs: `npm run
 * bench` stays the measure of speed.
 *
 * How: the server starts as `npm start` starts it, plus `--single-threaded` (so the compiler and
 * the collector's helpers run on the counted thread, at the same points every run), under
 * callgrind with counting off. After a warm-up of `INSTR_WARMUP` requests it counts windows of
 * `INSTR_REQUESTS` requests (`INSTR_WINDOWS` of them). The windows of a start fall as V8 keeps
 * optimising, so compare window by window, two versions measured the same way.
 * `INSTR_PATH` is the call (default `/p247/config/get/`, signed out).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { load } from './load.ts';
import { benchDataDir, startAtalaya } from './processes.ts';

const call = process.env.INSTR_PATH ?? '/p247/config/get/';
const warmup = Number(process.env.INSTR_WARMUP ?? 20_000);
const requests = Number(process.env.INSTR_REQUESTS ?? 8_000);
const windows = Number(process.env.INSTR_WINDOWS ?? 4);
const roots = process.argv.slice(2).map((root) => path.resolve(root));
// vgdb, through which callgrind_control reaches the process, names its files after $HOST, which
// startAtalaya sets for the server: callgrind_control must see the same.
const env = { ...process.env, HOST: '127.0.0.1' };

/** Instructions per request of each window, for the server of one checkout. */
async function count(root?: string): Promise<number[]> {
  const data = benchDataDir();
  try {
    await (await startAtalaya(data.dir, {}, { root })).stop(); // the first start seeds the demo realm
    const out = path.join(data.dir, 'callgrind.out');
    const log = `--log-file=${path.join(data.dir, 'valgrind.log')}`;
    const wrapper = ['valgrind', '--tool=callgrind', log, `--callgrind-out-file=${out}`, '--instr-atstart=no', '--smc-check=all-non-file'];
    const server = await startAtalaya(data.dir, {}, { root, wrapper, flags: ['--single-threaded'], startTimeoutMs: 600_000 });
    const control = (...args: string[]) => execFileSync('callgrind_control', [...args, String(server.pid)], { env, stdio: 'ignore' });
    const url = `http://127.0.0.1:${server.port}${call}`;
    const headers = { 'x-dd-request': '1' };
    try {
      await load(url, { requests: warmup, headers });
      const perRequest: number[] = [];
      for (let window = 1; window <= windows; window++) {
        control('--zero');
        control('--instr=on');
        await load(url, { requests, headers });
        control('--instr=off');
        control(`--dump=window ${window}`);
        const totals = /^totals:\s+(\d+)/m.exec(readFileSync(`${out}.${window}`, 'utf8'));
        if (!totals) throw new Error(`callgrind wrote no totals for window ${window}`);
        perRequest.push(Number(totals[1]) / requests);
      }
      return perRequest;
    } finally {
      await server.stop();
    }
  } finally {
    data.dispose();
  }
}

console.log(`Instructions per request of GET ${call}: ${windows} windows of ${requests} requests after ${warmup}, 50 connections`);
for (const root of roots.length > 0 ? roots : [undefined]) {
  const figures = await count(root);
  console.log(`${(root ?? 'this checkout').padEnd(30)} ${figures.map((ir) => `${(ir / 1000).toFixed(1)} k`).join('  ')}`);
}
