import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { readOrNull, restore, writeAtomic } from '../common/files.ts';

/** One file of a change set: new content, or null to remove it. */
export interface FileChange {
  file: string;
  content: string | null;
  mode: number;
}

/**
 * Applies a set of file changes and returns an undo that puts every file back as it was. Used so a
 * vhost, its certificate and its pages change together and are rolled back together.
 */
export async function applyChanges(changes: FileChange[]): Promise<() => Promise<void>> {
  const done: { file: string; previous: Buffer | null; mode: number }[] = [];
  const undo = async () => {
    for (const { file, previous, mode } of done.reverse()) await restore(file, previous, mode);
  };
  try {
    for (const change of changes) {
      const previous = await readOrNull(change.file);
      done.push({ file: change.file, previous, mode: change.mode });
      if (change.content === null) await rm(change.file, { force: true });
      else {
        await mkdir(path.dirname(change.file), { recursive: true, mode: change.mode & 0o077 ? 0o755 : 0o700 });
        await writeAtomic(change.file, change.content, change.mode);
      }
    }
  } catch (error) {
    await undo();
    throw error;
  }
  return undo;
}

/** Names in a directory, or none when it does not exist. */
export async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
