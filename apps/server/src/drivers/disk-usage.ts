import { lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * Bytes the regular files under a folder take, without following links (a link out of a web root
 * never counts another customer's files); 0 when the folder does not exist yet.
 */
export async function folderBytes(dir: string): Promise<number> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let total = 0;
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await folderBytes(full);
    else if (entry.isFile()) total += (await lstat(full)).size;
  }
  return total;
}
