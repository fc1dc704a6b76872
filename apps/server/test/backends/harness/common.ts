import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { skipReason } from '../../skip.ts';

/** The binaries a suite needs; the reason to skip (only when one is missing), or null. */
export function missingBinaries(...binaries: string[]): string | null {
  const missing = binaries.filter((b) => !existsSync(b));
  if (!missing.length) return null;
  return skipReason(`${missing.join(', ')} not installed`);
}

/** A port free on 127.0.0.1 right now (the kernel picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** A bounded run of free consecutive ports for a passive FTP range. */
export async function freePortRange(count: number): Promise<[number, number]> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const start = 20000 + Math.floor(Math.random() * 30000);
    const ports = Array.from({ length: count }, (_, i) => start + i);
    if ((await Promise.all(ports.map(isFree))).every(Boolean)) return [start, start + count - 1];
  }
  throw new Error('no free port range');
}

const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

export async function waitForPort(port: number, timeoutMs = 10_000, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`nothing listens on ${host}:${port} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Polls `check` until it returns true (a reload is asynchronous), at most `timeoutMs`. */
export async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  // A daemon's reload is asynchronous: until its new workers answer, a request may reach an old
  // worker that is closing (a reset) or see the old configuration. Both mean "not yet".
  const attempt = () =>
    check().catch((error: unknown) => {
      lastError = error;
      return false;
    });
  while (!(await attempt())) {
    if (Date.now() > deadline) throw new Error(`condition not met in time${lastError ? `: ${String(lastError)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A temp directory readable by a daemon's unprivileged workers (mkdtemp makes it 0700). */
export async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `atalaya-${name}-`));
  spawnSync('chmod', ['0755', dir]);
  return dir;
}

/** A daemon started in the foreground, with its output kept for a failing test's message. */
export function startDaemon(
  program: string,
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => string } {
  const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: false, env: { ...process.env, ...env } });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  child.stderr?.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
  return { child, output: () => output };
}

/** Stops a daemon we started (by its own pid, never by name) and waits for it to exit. */
export async function stopDaemon(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export const removeDir = (dir: string | undefined) => (dir ? rm(dir, { recursive: true, force: true }) : Promise.resolve());
