import { type BackupRestoreInput, backupPathSegments, RESTORABLE_PARTS, type RestorablePart } from '@atalaya/contract';

/**
 * The screen's reading of a backup's tree (packages/contract/src/backups.ts): `/web/…`,
 * `/mail/<address>/…`, `/db/<name>.sql`, `/zone/<domain>.zone`. Pure, so the rules the restore
 * dialog and the browser follow are tested without a browser (tree.test.ts).
 */

/** The segments of a tree path; a path the contract refuses reads as the top. */
export function segmentsOf(treePath: string): string[] {
  const segments = backupPathSegments(treePath);
  return Array.isArray(segments) ? segments : [];
}

/** The tree path of an entry of the folder `folder`. */
export const childPath = (folder: string, name: string) => `/${[...segmentsOf(folder), name].join('/')}`;

/** The folders from the top down to `treePath`, each with its own path: the browser's breadcrumbs. */
export function crumbsOf(treePath: string): { name: string; path: string }[] {
  const segments = segmentsOf(treePath);
  return segments.map((name, i) => ({ name, path: `/${segments.slice(0, i + 1).join('/')}` }));
}

const isRestorable = (part: string): part is RestorablePart => (RESTORABLE_PARTS as readonly string[]).includes(part);

/**
 * What the restore call is sent for an entry of the tree: the first segment is the part, the rest
 * the path inside it; a database is named without its dump's `.sql`, and a zone is restored whole.
 * Null where nothing can be restored (the top itself, a part the screen does not restore).
 */
export function restoreTargetOf(treePath: string): Pick<BackupRestoreInput, 'part' | 'path'> | null {
  const [part, ...rest] = segmentsOf(treePath);
  if (part === undefined || !isRestorable(part)) return null;
  if (part === 'zone') return { part, path: '/' };
  if (part === 'db') return { part, path: rest.length === 0 ? '/' : `/${rest.join('/').replace(/\.sql$/, '')}` };
  return { part, path: `/${rest.join('/')}` };
}

/** A zone is only restored in place (the zone history keeps the one it replaces): no copy is offered. */
export const copyOffered = (part: RestorablePart) => part !== 'zone';

/** A time of the list (ISO 8601) as the seconds lib/format.ts formats. */
export const secondsOf = (iso: string) => Math.floor(Date.parse(iso) / 1000);
