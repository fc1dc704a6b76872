/**
 * The processes a bench run starts: the panel exactly as `npm start` runs it (same Node flags, same
 * logging) and the bare baseline, each in a process of its own, on a free port.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const SERVER = 'apps/server/src/server.ts';
export const BENCH_PASSWORD = 'bench-password-1';

/** package.json's start command as words: its environment (`NAME=value` before `node`), node's flags, the entry. */
function startWords() {
  const start: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  const words = start.split('&&').at(-1)!.trim().split(/\s+/);
  const node = words.findIndex((word) => !/^[A-Z_]+=/.test(word));
  return { env: words.slice(0, node), flags: words.slice(node + 1, words.indexOf(SERVER)) };
}

/** The Node flags of package.json's start script, so the bench measures the server as operators run it. */
export const startFlags = (): string[] => startWords().flags;

/** The environment the start script sets (glibc's `MALLOC_ARENA_MAX`, decision 060), as an env object. */
export const startEnv = (): Record<string, string> =>
  Object.fromEntries(startWords().env.map((word) => [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]));

export interface Running {
  port: number;
  pid: number;
  /** Resident memory of the process now, from /proc (Linux). */
  rssMb(): number;
  /** CPU time the process has used so far (user + system), from /proc: unlike req/s, barely moved by other load on the machine. */
  cpuSeconds(): number;
  stop(): Promise<void>;
}

// Linux's USER_HZ, the unit of /proc/<pid>/stat's times, is 100 on every architecture Node runs on.
const TICKS_PER_SECOND = 100;

function cpuSeconds(pid: number) {
  // The fields after the command name, which is in parentheses and may contain spaces.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** How a script is started beyond its arguments: from another checkout, under a wrapper command. */
export interface StartOptions {
  /** The checkout whose server runs (a git worktree of another commit, for an A/B); default this one. */
  root?: string;
  /** A command the node process runs under, such as valgrind's. */
  wrapper?: string[];
  /** Node flags beyond `npm start`'s. */
  flags?: string[];
  startTimeoutMs?: number;
}

/** Starts a node script and waits for the line that carries its port. */
async function startScript(args: string[], env: NodeJS.ProcessEnv, portLine: RegExp, options: StartOptions = {}): Promise<Running> {
  const script = args.find((arg) => arg.endsWith('.ts')) ?? args[0];
  const [command, ...before] = [...(options.wrapper ?? []), process.execPath];
  const child: ChildProcess = spawn(command, [...before, ...args], {
    cwd: options.root ?? ROOT,
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), options.startTimeoutMs ?? 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = portLine.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}:\n${output}`)));
  });
  // Log lines keep coming (one per request): drained, so the pipe never fills and blocks the server.
  child.stdout!.resume();
  child.stdout!.removeAllListeners('data');
  child.stdout!.on('data', () => {});
  return {
    port,
    pid: child.pid!,
    cpuSeconds: () => cpuSeconds(child.pid!),
    rssMb: () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The bare node:http baseline; with `workMicros`, the reference server that spends that much CPU per request. */
export const startBare = (workMicros = 0) =>
  startScript([path.join(ROOT, 'bench/bare.ts'), '--work', String(workMicros)], process.env, /listening (\d+)/);

/** Fastify with one route and the panel's request log line (or none), started with the panel's Node flags. */
export const startFastifyBaseline = (logged = true) =>
  startScript(
    [...startFlags(), path.join(ROOT, 'bench/fastify-baseline.ts'), ...(logged ? [] : ['--no-log'])],
    { ...process.env, ...startEnv() },
    /listening (\d+)/,
  );

/** A data dir of its own, removed by `dispose()`; the demo realm is seeded on the first start. */
export function benchDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-bench-'));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The panel on SQLite in `dataDir`, started as `npm start` starts it (the web build aside). */
export function startAtalaya(dataDir: string, env: NodeJS.ProcessEnv = {}, options: StartOptions = {}) {
  return startScript(
    [...startFlags(), ...(options.flags ?? []), SERVER],
    {
      // The bench's own environment may override the start script's, for an A/B of it.
      ...startEnv(),
      ...process.env,
      ATALAYA_DATA_DIR: dataDir,
      ATALAYA_DEMO_PASSWORD: BENCH_PASSWORD,
      DATABASE_URL: '',
      PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    /Atalaya is running at http:\/\/localhost:(\d+)\//,
    options,
  );
}
