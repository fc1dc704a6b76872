import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Writes a file so that a reader sees either the old content or the new, never a half-written
 * one: a temp file in the same directory (same file system), flushed, then renamed over the target.
 * The temp name starts with a dot and ends in `.tmp`, so no `*.conf` include ever picks it up.
 */
export async function writeAtomic(file: string, data: string | Buffer, mode = 0o644, group?: number): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, mode);
  try {
    await handle.writeFile(data);
    await handle.chmod(mode); // the umask must not widen or narrow what we asked for
    if (group !== undefined) await handle.chown(-1, group); // e.g. the daemon's group, for a 0640 file
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The file's content, or null when it does not exist. */
export async function readOrNull(file: string): Promise<Buffer | null> {
  try {
    return await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Puts back what readOrNull returned: the old content, or no file at all. */
export async function restore(file: string, previous: Buffer | null, mode = 0o644): Promise<void> {
  if (previous === null) await rm(file, { force: true });
  else await writeAtomic(file, previous, mode);
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Serialises changes to one backend: in this process by a promise chain, across processes (several
 * API servers on one machine) by an exclusive lock file. A lock older than `staleMs` is taken over,
 * so a crashed process cannot block the backend for ever.
 */
export function withLock<T>(lockFile: string, fn: () => Promise<T>, staleMs = 120_000): Promise<T> {
  const previous = queues.get(lockFile) ?? Promise.resolve();
  const next = previous.catch(() => {}).then(() => underFileLock(lockFile, fn, staleMs));
  queues.set(lockFile, next);
  next
    .finally(() => {
      if (queues.get(lockFile) === next) queues.delete(lockFile);
    })
    .catch(() => {});
  return next;
}

async function underFileLock<T>(lockFile: string, fn: () => Promise<T>, staleMs: number): Promise<T> {
  await mkdir(path.dirname(lockFile), { recursive: true });
  const deadline = Date.now() + staleMs + 5_000;
  for (;;) {
    try {
      const handle = await open(lockFile, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = await stat(lockFile).then(
        (s) => Date.now() - s.mtimeMs,
        () => 0,
      );
      if (age > staleMs) await rm(lockFile, { force: true });
      else if (Date.now() > deadline) throw new Error(`backend busy: ${lockFile} held too long`);
      else await new Promise((r) => setTimeout(r, 50));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(lockFile, { force: true });
  }
}
