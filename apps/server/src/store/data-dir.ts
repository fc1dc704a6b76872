import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The data dir holds the store, the secret key, mail and the local drivers' state: the panel's own
 * account only. Created 0700, and at every start the dir and everything in it are brought back to
 * 0700 (dirs) and 0600 (files), whatever an older version or the umask left. Links are not
 * followed: what they point to is not the panel's to change.
 */
export function secureDataDir(dataDir: string) {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  restrict(dataDir, statSync(dataDir).isDirectory());
}

function restrict(file: string, isDir: boolean) {
  const wanted = isDir ? 0o700 : 0o600;
  try {
    if ((lstatSync(file).mode & 0o777) !== wanted) chmodSync(file, wanted);
  } catch (error) {
    // Not the panel's file (another owner): say so, and let the start go on.
    console.warn(`warning: could not restrict ${file} to mode ${wanted.toString(8)}: ${(error as Error).message}`);
    return;
  }
  if (!isDir) return;
  for (const entry of readdirSync(file, { withFileTypes: true })) {
    if (entry.isDirectory()) restrict(path.join(file, entry.name), true);
    else if (entry.isFile()) restrict(path.join(file, entry.name), false);
  }
}

/**
 * Creates a file 0600 before a library opens it with the umask's mode: SQLite gives its -wal and
 * -shm files the mode of the database file, so the three start private.
 */
export function createPrivateFile(file: string) {
  closeSync(openSync(file, 'a', 0o600));
}
