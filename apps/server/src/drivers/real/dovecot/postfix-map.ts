import { randomBytes } from 'node:crypto';
import { chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { readOrNull } from '../common/files.ts';
import { run, runChecked } from '../common/run.ts';

export type MapType = 'hash' | 'lmdb' | 'btree' | 'cdb';
const SUFFIX: Record<MapType, string> = { hash: '.db', btree: '.db', lmdb: '.lmdb', cdb: '.cdb' };

/** A Postfix virtual alias map: lookup key (`user@domain`, or `@domain` for a catch-all) → targets. */
export type AliasMap = Map<string, string[]>;

export function parseMap(text: string): AliasMap {
  const map: AliasMap = new Map();
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [key, ...rest] = trimmed.split(/\s+/);
    map.set(
      key!,
      rest
        .join(' ')
        .split(/[,\s]+/)
        .filter(Boolean),
    );
  }
  return map;
}

export function formatMap(map: AliasMap): string {
  const keys = [...map.keys()].sort();
  return keys.map((k) => `${k} ${map.get(k)!.join(', ')}`).join('\n') + (keys.length ? '\n' : '');
}

export async function readMap(file: string): Promise<AliasMap> {
  return parseMap((await readOrNull(file))?.toString('utf8') ?? '');
}

/**
 * Replaces source and compiled map without a moment where Postfix could read a half-built table:
 * both are built under temp names in the same directory, the compiled one renamed first.
 */
export async function writeMap(file: string, map: AliasMap, postmap: string, type: MapType): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o755 });
  const temp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}`);
  try {
    await writeFile(temp, formatMap(map), { mode: 0o644, flag: 'wx' });
    await chmod(temp, 0o644);
    await runChecked(postmap, [`${type}:${temp}`], { timeoutMs: 30_000 });
    await rename(temp + SUFFIX[type], file + SUFFIX[type]);
    await rename(temp, file);
  } finally {
    await rm(temp, { force: true });
    await rm(temp + SUFFIX[type], { force: true });
  }
}

/** One lookup the way Postfix does it (`postmap -q`): the targets, or null when the key is absent. */
export async function queryMap(file: string, key: string, postmap: string, type: MapType): Promise<string | null> {
  const result = await run(postmap, ['-q', key, `${type}:${file}`], { timeoutMs: 10_000 });
  if (result.code === 1) return null;
  if (result.code !== 0) throw new Error(`postmap -q failed: ${result.stderr.trim()}`);
  return result.stdout.trim();
}
