import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Putting restored data in place: restic restores into a staging folder beside the live data
 * (same filesystem, so each step is a rename), and the live path changes only by renames. A
 * replace moves the live path into the staging folder and the restored one onto it, with a
 * journal naming the target written before: a process killed between the two renames leaves the
 * old version in the staging folder, which the next restore (or backup) of that root puts back.
 */
const PREFIX = '.atalaya-restore-';

export interface Staging {
  dir: string;
  /** restic's `--target`: the snapshot's absolute paths appear below it. */
  data: string;
}

export async function openStaging(root: string): Promise<Staging> {
  await recoverInterrupted(root);
  const dir = path.join(root, `${PREFIX}${randomBytes(8).toString('hex')}`);
  await mkdir(path.join(dir, 'data'), { recursive: true, mode: 0o700 });
  return { dir, data: path.join(dir, 'data') };
}

export const closeStaging = (staging: Staging) => rm(staging.dir, { recursive: true, force: true });

/** Swaps `restored` onto `target` (its parent made if missing); the old version, if any, is removed after. */
export async function swapInto(staging: Staging, restored: string, target: string) {
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(path.join(staging.dir, 'journal.json'), JSON.stringify({ target }));
  const old = path.join(staging.dir, 'old');
  if (await exists(target)) await rename(target, old);
  await rename(restored, target);
  await closeStaging(staging);
}

/** Puts back what a killed restore had moved aside, and removes every staging folder left in `root`. */
export async function recoverInterrupted(root: string) {
  if (!existsSync(root)) return;
  for (const name of await readdir(root)) {
    if (!name.startsWith(PREFIX)) continue;
    const dir = path.join(root, name);
    const journal = await readFile(path.join(dir, 'journal.json'), 'utf8').then(JSON.parse, () => null);
    const old = path.join(dir, 'old');
    const target = journal?.target;
    const inside = typeof target === 'string' && target.startsWith(`${path.resolve(root)}${path.sep}`);
    if (inside && (await exists(old)) && !(await exists(target))) {
      await rename(old, target);
    }
    await rm(dir, { recursive: true, force: true });
  }
}

const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );
