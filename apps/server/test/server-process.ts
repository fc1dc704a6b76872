import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const SERVER = path.resolve(import.meta.dirname, '../src/server.ts');

/** A real server process (`node server.ts`) a test starts, kills with SIGKILL and starts again. */
export interface ServerProcess {
  child: ChildProcess;
  port: number;
  /** SIGKILL, answered once the process has exited. */
  kill(): Promise<void>;
}

/** Starts the server with `env` on top of the test's, and answers once it listens (20 s at most). */
export function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', SERVER], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk;
      const port = /Atalaya is running at http:\/\/localhost:(\d+)\//.exec(output)?.[1];
      if (port) {
        clearTimeout(timer);
        resolve({ child, port: Number(port), kill });
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
  });
}
