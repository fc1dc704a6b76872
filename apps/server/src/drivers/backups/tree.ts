import path from 'node:path';
import { type BackupPart, backupPathSegments } from '@atalaya/contract';
import { BackupError, type StoredPart } from './interface.ts';

/**
 * The backup's tree as the customer sees it, over the snapshots of its parts: `/web/…` is the web
 * folder, `/mail/<address>/…` each mailbox's home, `/db/<name>.sql` and `/zone/<domain>.zone` the
 * files `--stdin` made. A path is either a folder the tree makes up (`/`, `/mail/`, `/db/`,
 * `/zone/`) or a place inside one snapshot: its id, the absolute path restic recorded there (the
 * root the part starts at) and the segments below it.
 */
export type TreePlace =
  | { kind: 'virtual'; entries: { name: string; type: 'dir' | 'file'; part: StoredPart }[] }
  | { kind: 'snapshot'; part: StoredPart; root: string; rest: string[] };

/** The parts a customer browses; `settings` is the operator's, for disaster recovery. */
const BROWSED: BackupPart[] = ['web', 'mail', 'db', 'zone'];
const FILE_NAME = { db: (name: string) => `${name}.sql`, zone: (name: string) => `${name}.zone` } as const;

export function treePlace(parts: StoredPart[], treePath: string): TreePlace {
  const segments = backupPathSegments(treePath);
  if (!Array.isArray(segments))
    throw new BackupError(segments.error === 'backups.path_outside' ? 'backups.path_outside' : 'backups.path_not_found');
  const [top, ...rest] = segments;
  if (top === undefined) {
    const present = BROWSED.map((p) => parts.find((s) => s.part === p)).filter((s): s is StoredPart => s !== undefined);
    return { kind: 'virtual', entries: present.map((s) => ({ name: s.part, type: 'dir', part: s })) };
  }
  const notFound = () => new BackupError('backups.path_not_found', treePath);
  if (top === 'web') {
    const web = parts.find((s) => s.part === 'web');
    if (!web?.paths[0]) throw notFound();
    return { kind: 'snapshot', part: web, root: web.paths[0], rest };
  }
  if (top === 'mail') {
    const mail = parts.find((s) => s.part === 'mail');
    if (!mail) throw notFound();
    const [address, ...inside] = rest;
    if (address === undefined) return { kind: 'virtual', entries: mail.names.map((name) => ({ name, type: 'dir', part: mail })) };
    const index = mail.names.indexOf(address);
    if (index < 0 || !mail.paths[index]) throw notFound();
    return { kind: 'snapshot', part: mail, root: mail.paths[index], rest: inside };
  }
  if (top === 'db' || top === 'zone') {
    const files = parts.filter((s) => s.part === top);
    if (files.length === 0) throw notFound();
    const named = files.map((s) => ({ name: FILE_NAME[top](s.names[0] ?? ''), type: 'file' as const, part: s }));
    if (rest.length === 0) return { kind: 'virtual', entries: named };
    const file = named.find((f) => f.name === rest[0]);
    if (!file || rest.length > 1) throw notFound();
    // `--stdin-filename x.sql` records `/x.sql`: the root is `/`, the file its one entry.
    return { kind: 'snapshot', part: file.part, root: '/', rest };
  }
  throw notFound();
}

/** The absolute path in the snapshot of a place, and the folders from its root down to its parent (each must be a folder, not a link). */
export function snapshotPaths(place: { root: string; rest: string[] }) {
  const target = path.posix.join(place.root, ...place.rest);
  const ancestors = place.rest.map((_, i) => path.posix.join(place.root, ...place.rest.slice(0, i)));
  return { target, ancestors };
}
