import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { BackupError, type BackupRepository } from './interface.ts';

/** Where restic is and where it keeps its cache. */
export interface Restic {
  binary: string;
  cacheDir: string;
}

export interface RunOptions {
  /** A stream for `--stdin` (made anew if a stale lock makes restic run twice). */
  input?: () => Promise<Readable>;
  /** Each JSON line restic prints (`--json`): progress and summaries. */
  onJson?: (message: Record<string, unknown>) => void;
  signal?: AbortSignal;
}

/**
 * The child's environment: the password and repository through the environment (never argv, where
 * `ps` shows it), the repository's own variables (S3 keys) on top, and nothing of restic's or
 * AWS's inherited from the panel's environment.
 */
export function resticEnv(repo: BackupRepository): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(RESTIC_|AWS_)/.test(k)));
  return { ...inherited, ...repo.env, RESTIC_REPOSITORY: repo.url, RESTIC_PASSWORD: repo.password };
}

const STALE_LOCK = /repository is already locked/i;

/**
 * Runs restic once, or twice when a killed run left its lock behind: `restic unlock` removes only
 * the stale locks (a dead process of this host, or older than 30 minutes), so a live run's lock
 * still stops the second attempt. Answers the standard output.
 */
export async function runRestic(restic: Restic, repo: BackupRepository, args: string[], options: RunOptions = {}): Promise<string> {
  try {
    return await runOnce(restic, repo, args, options);
  } catch (error) {
    if (!isLocked(error)) throw error;
    await runOnce(restic, repo, ['unlock'], {}).catch(() => {});
    return runOnce(restic, repo, args, options);
  }
}

const isLocked = (error: unknown) => error instanceof ResticFailed && STALE_LOCK.test(error.stderr);

/** restic's exit with a failure; `toBackupError` names it for the screen. */
class ResticFailed extends Error {
  readonly stderr: string;
  readonly code: number | null;
  constructor(stderr: string, code: number | null) {
    super(lastLine(stderr) || `restic exited with ${code}`);
    this.stderr = stderr;
    this.code = code;
  }
}

function spawnRestic(restic: Restic, repo: BackupRepository, args: string[], stdin: 'pipe' | 'ignore', signal?: AbortSignal | null) {
  const extended = Object.entries(repo.options ?? {}).flatMap(([k, v]) => {
    if (!/^[a-z0-9]+\.[a-z0-9._-]+$/i.test(k) || /[\0\n]/.test(v)) throw new Error(`invalid restic option: ${JSON.stringify(k)}`);
    return ['-o', `${k}=${v}`];
  });
  return spawn(restic.binary, ['--cache-dir', restic.cacheDir, ...extended, ...args], {
    env: resticEnv(repo),
    stdio: [stdin, 'pipe', 'pipe'],
    // On an agent the panel's signal arrives as null (it stays on the panel; JSON has no undefined in a list): no signal.
    signal: signal ?? undefined,
  });
}

async function runOnce(restic: Restic, repo: BackupRepository, args: string[], options: RunOptions): Promise<string> {
  const input = options.input ? await options.input() : undefined;
  const child = spawnRestic(restic, repo, args, input ? 'pipe' : 'ignore', options.signal);
  const stderr = collect(child, 'stderr');
  let stdout = '';
  let pending = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stdout += text;
    if (!options.onJson) return;
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) emitJson(line, options.onJson);
  });
  if (input && child.stdin) {
    // restic may stop reading (a failure): its closed stdin is its exit's to report, not an EPIPE.
    child.stdin.on('error', () => {});
    input.on('error', (e) => child.kill() && void e);
    input.pipe(child.stdin);
  }
  const code = await exitOf(child);
  if (options.onJson && pending) emitJson(pending, options.onJson);
  if (code !== 0) throw toBackupError(new ResticFailed(stderr(), code));
  return stdout;
}

function emitJson(line: string, onJson: (message: Record<string, unknown>) => void) {
  if (!line.startsWith('{')) return;
  try {
    onJson(JSON.parse(line));
  } catch {
    // A line cut short or not JSON: restic's progress is advisory.
  }
}

/**
 * restic's standard output as a stream (`dump`), once its first bytes arrive; a failure before any
 * byte (a path not in the snapshot) rejects instead, so a download never starts with an error.
 */
export async function streamRestic(restic: Restic, repo: BackupRepository, args: string[]): Promise<Readable> {
  const attempt = async () => {
    const child = spawnRestic(restic, repo, args, 'ignore');
    const stderr = collect(child, 'stderr');
    // Read off the pipe at once: a child that exits while its stdout waits unread (the reader still
    // loading tar-stream) has that stdout resumed by Node's child_process, its bytes dropped.
    const out = child.stdout!.pipe(new PassThrough());
    const exited = exitOf(child);
    const first = await Promise.race([
      new Promise<'data'>((resolve) => out.once('readable', () => resolve('data'))),
      exited.then((code) => code),
    ]);
    if (first !== 'data' && first !== 0) throw toBackupError(new ResticFailed(stderr(), first));
    // A failure after the first bytes ends the stream with the error rather than a truncated file.
    exited.then(
      (code) => code !== 0 && out.destroy(toBackupError(new ResticFailed(stderr(), code))),
      (e) => out.destroy(e),
    );
    return out;
  };
  try {
    return await attempt();
  } catch (error) {
    if (!isLocked(error)) throw error;
    await runOnce(restic, repo, ['unlock'], {}).catch(() => {});
    return attempt();
  }
}

function collect(child: ChildProcess, name: 'stderr') {
  let text = '';
  child[name]?.on('data', (d: Buffer) => {
    text = (text + d.toString()).slice(-8000);
  });
  return () => text;
}

function exitOf(child: ChildProcess) {
  return new Promise<number | null>((resolve, reject) => {
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'ENOENT' ? new BackupError('backups.restic_missing', String(e.path ?? '')) : e),
    );
    child.on('close', (code) => resolve(code));
  });
}

const lastLine = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .pop() ?? '';

const UNREACHABLE =
  /unable to open (repository|config file)|Is there a repository at|connection refused|no such host|dial tcp|ssh command exited|unable to start the sftp session|subprocess ssh|server response unexpected|InvalidAccessKeyId|SignatureDoesNotMatch|NoSuchBucket|Access Denied|connection reset|i\/o timeout/i;
const FULL = /no space left on device|disk quota exceeded|insufficient storage/i;

/** A failure as the screen names it: unreachable or full repository by key, otherwise restic's own last line. */
function toBackupError(failure: ResticFailed): Error {
  if (FULL.test(failure.stderr)) return new BackupError('backups.repository_full', lastLine(failure.stderr));
  if (UNREACHABLE.test(failure.stderr)) return new BackupError('backups.repository_unreachable', lastLine(failure.stderr));
  return failure;
}
