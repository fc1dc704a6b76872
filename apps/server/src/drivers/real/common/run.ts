import { spawn } from 'node:child_process';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export class CommandError extends Error {
  readonly result: RunResult | null;
  constructor(message: string, result: RunResult | null) {
    super(message);
    this.result = result;
  }
}

export interface RunOptions {
  /** Written to the program's stdin, then closed: the only way a password reaches a program. */
  input?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Kills the program when it aborts (a job past its time limit, a worker shutting down). */
  signal?: AbortSignal;
}

/**
 * Runs a program with an argument array (never through a shell, so nothing in an argument is ever
 * interpreted) and collects its output. Resolves with the exit code; rejects only when the program
 * cannot be started, outlives its time limit or is stopped by its signal (then it is killed).
 */
export function run(program: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(new CommandError(`${program} was stopped: its job was aborted`, null));
    const child = spawn(program, args, {
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: options.env ?? { PATH: '/usr/sbin:/usr/bin:/sbin:/bin', LANG: 'C' },
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    const keep = (into: Buffer[]) => (chunk: Buffer) => {
      // A runaway program must not fill the panel's memory: 1 MB of output is plenty for a diagnosis.
      size += chunk.length;
      if (size <= 1024 * 1024) into.push(chunk);
    };
    child.stdout.on('data', keep(out));
    child.stderr.on('data', keep(err));
    const stop = (reason: string) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', aborted);
      child.kill('SIGKILL');
      reject(new CommandError(`${program} ${reason}`, null));
    };
    const timer = setTimeout(() => stop(`did not finish within ${options.timeoutMs ?? 60_000} ms`), options.timeoutMs ?? 60_000);
    const aborted = () => stop('was stopped: its job was aborted');
    options.signal?.addEventListener('abort', aborted, { once: true });
    child.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', aborted);
      reject(new CommandError(`cannot run ${program}: ${error.message}`, null));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', aborted);
      resolve({
        code: code ?? (signal ? 128 : 1),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      });
    });
    child.stdin.on('error', () => {}); // a program that exits without reading stdin is not our failure
    child.stdin.end(options.input ?? '');
  });
}

/** Like run, but a non-zero exit is an error carrying the program's own message. */
export async function runChecked(program: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const result = await run(program, args, options);
  if (result.code !== 0) {
    const detail = (result.stderr || result.stdout).trim().split('\n').slice(-5).join(' | ');
    throw new CommandError(`${program} ${args[0] ?? ''} failed (exit ${result.code}): ${detail}`, result);
  }
  return result;
}
