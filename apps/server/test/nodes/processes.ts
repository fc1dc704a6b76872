import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** A child process of the test (the panel, an agent, the CLI) whose output is kept and can be waited on. */
export interface Launched {
  child: ChildProcess;
  output(): string;
  /** Resolves with the match once the output (from `from` on) matches `pattern`. */
  waitFor(pattern: RegExp, ms?: number, from?: number): Promise<RegExpExecArray>;
  exited: Promise<number | null>;
}

/** `wrap` goes in front of the command: `ip netns exec <name>` runs an agent inside its node's network. */
export function launch(script: 'server' | 'agent' | 'cli', args: string[], env: Record<string, string>, wrap: string[] = []): Launched {
  const file = { server: 'server.ts', agent: 'agent/main.ts', cli: 'cli/main.ts' }[script];
  const command = [...wrap, process.execPath, '--disable-warning=ExperimentalWarning', path.join(SRC, file), ...args];
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, ATALAYA_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const waiters = new Set<() => void>();
  const read = (chunk: Buffer) => {
    output += chunk;
    for (const w of waiters) w();
  };
  child.stdout?.on('data', read);
  child.stderr?.on('data', read);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exited,
    waitFor(pattern, ms = 60_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(output.slice(from));
          if (!match) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(match);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${script} never printed ${pattern}:\n${output}`));
        }, ms);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Polls `probe` until it answers something truthy, or fails after `ms`. */
export async function eventually<T>(probe: () => Promise<T>, ms = 40_000, what = 'the condition'): Promise<NonNullable<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
