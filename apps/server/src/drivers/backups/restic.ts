import { existsSync } from 'node:fs';
import { chown, mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BackupEntry, BackupPart } from '@atalaya/contract';
import type { DatabaseDriver } from '../databases/interface.ts';
import { hostName, InvalidName, mailAddress, resolveInside } from '../real/common/names.ts';
import { fileTarGz, folderTarGz } from './archive.ts';
import {
  type BackupDriver,
  BackupError,
  type BackupRepository,
  type RestoreSpec,
  type SnapshotSpec,
  type StoredPart,
} from './interface.ts';
import { copyIntoMaildir } from './maildir.ts';
import { closeStaging, openStaging, recoverInterrupted, swapInto } from './place.ts';
import { type Restic, runRestic, streamRestic } from './run.ts';
import { replacingDump, retargetDump } from './sql.ts';
import { snapshotPaths, type TreePlace, treePlace } from './tree.ts';

export interface ResticDriverInput {
  restic: Restic;
  /** Where this machine keeps the services' web folders and mailbox homes (agent/files.ts resolves them alike). */
  webRoot: string;
  mailRoot: string;
  /** The database driver of the same machine (dumps and loads); none when it has no real one. */
  databases: () => DatabaseDriver | undefined;
}

/** A node of `restic ls --json`. */
interface LsNode {
  name: string;
  type: string;
  path: string;
  size?: number;
  mode?: number;
  mtime: string;
}

/** restic's mode bits carry Go's type flags above the permission bits. */
const permissions = (mode: number | undefined) => (mode ?? 0o644) & 0o7777;

/**
 * The restic driver (docs/decisions/062-backups-restic.md): one snapshot per part, the backup's
 * tree mapped onto them (tree.ts), restores staged and renamed into place (place.ts).
 */
export function resticDriver({ restic, webRoot, mailRoot, databases }: ResticDriverInput): BackupDriver {
  const run = (repo: BackupRepository, args: string[], options?: Parameters<typeof runRestic>[3]) => runRestic(restic, repo, args, options);
  const needDatabases = () => {
    const driver = databases();
    if (!driver) throw new Error('this machine has no database driver configured (drivers.databases.driver)');
    return driver;
  };
  const webFolder = (reference: string) => resolveInside(webRoot, hostName(reference));
  const mailHome = (address: string) => {
    const { local, domain } = mailAddress(address);
    return resolveInside(mailRoot, path.join(domain, local));
  };

  /** Every node the place needs: the folders from the part's root down, and the place's own children. */
  async function inspect(repo: BackupRepository, snapshot: string, place: { root: string; rest: string[] }) {
    const { target, ancestors } = snapshotPaths(place);
    const out = await run(repo, ['ls', '--json', snapshotId(snapshot), ...new Set([place.root, ...ancestors, target])]);
    const nodes = new Map<string, LsNode>();
    for (const line of out.split('\n')) {
      if (!line.startsWith('{')) continue;
      const node = JSON.parse(line) as LsNode & { struct_type?: string };
      if (node.struct_type === 'node') nodes.set(node.path, node);
    }
    // A link on the way would lead the path elsewhere than the snapshot shows: refused, as outside.
    for (let i = 1; i <= place.rest.length; i++) {
      const node = nodes.get(path.posix.join(place.root, ...place.rest.slice(0, i)));
      if (!node) throw new BackupError('backups.path_not_found', target);
      if (node.type === 'symlink') throw new BackupError('backups.path_outside', target);
      if (i < place.rest.length && node.type !== 'dir') throw new BackupError('backups.path_not_found', target);
    }
    const self = nodes.get(target) ?? { name: path.posix.basename(target), type: 'dir', path: target, mtime: new Date(0).toISOString() };
    const children = [...nodes.values()].filter((n) => path.posix.dirname(n.path) === target && n.path !== target);
    return { target, self, children };
  }

  async function snapshotTimes(repo: BackupRepository, ids: string[]) {
    if (ids.length === 0) return new Map<string, string>();
    const list = JSON.parse(await run(repo, ['snapshots', '--json', ...ids])) as { id: string; short_id: string; time: string }[];
    return new Map(list.flatMap((s) => [[s.id, s.time] as const, [s.short_id, s.time] as const]));
  }

  function snapshotPlace(parts: StoredPart[], treePath: string) {
    const place = treePlace(parts, treePath);
    if (place.kind !== 'snapshot') throw new BackupError('backups.path_not_found', treePath);
    return place;
  }

  async function dumpFile(repo: BackupRepository, place: Extract<TreePlace, { kind: 'snapshot' }>) {
    const found = await inspect(repo, place.part.snapshot, place);
    if (found.self.type !== 'file') throw new BackupError('backups.path_not_found', found.target);
    return { ...found, stream: await streamOrEmpty(repo, place.part.snapshot, found.target, found.self.size ?? 0) };
  }

  /** restic's `dump` of a file; an empty file prints nothing, so it is not waited for. */
  const streamOrEmpty = async (repo: BackupRepository, snapshot: string, target: string, size: number) =>
    size === 0 ? Readable.from([]) : streamRestic(restic, repo, ['dump', snapshotId(snapshot), target]);

  return {
    async ensureRepository(repo) {
      if (!/^[a-z0-9]+:/.test(repo.url) && !existsSync(repo.url)) await mkdir(path.dirname(repo.url), { recursive: true });
      try {
        await run(repo, ['init']);
      } catch (error) {
        // A repository already there is what was asked for.
        if (!/already (exists|initialized)/.test(String((error as { stderr?: string }).stderr ?? (error as Error).message))) throw error;
      }
    },

    async repositoryId(repo) {
      try {
        const config = JSON.parse(await run(repo, ['cat', 'config'])) as { id?: unknown };
        return typeof config.id === 'string' ? config.id : null;
      } catch (error) {
        // No repository at that place (a local path another machine holds): not the same one.
        if (error instanceof BackupError && error.key === 'backups.repository_unreachable') return null;
        throw error;
      }
    },

    async snapshot(repo, spec, onProgress, signal) {
      // A restore killed between its two renames left the old version aside: back in place before it is saved.
      for (const root of [webRoot, mailRoot]) await recoverInterrupted(root);
      const tasks = snapshotTasks(spec);
      const parts: StoredPart[] = [];
      for (const [index, task] of tasks.entries()) {
        const args = ['backup', '--json', '--host', spec.host, ...[...spec.tags, ...task.tags].flatMap((t) => ['--tag', tagOf(t)])];
        let summary: Record<string, unknown> | undefined;
        await run(repo, [...args, ...task.args], {
          input: task.input,
          signal,
          onJson: (m) => {
            if (m.message_type === 'summary') summary = m;
            if (m.message_type === 'status' && typeof m.percent_done === 'number')
              onProgress?.(Math.floor(((index + m.percent_done) / tasks.length) * 99));
          },
        });
        if (!summary || typeof summary.snapshot_id !== 'string') throw new Error('restic backup printed no summary');
        parts.push({
          part: task.part,
          snapshot: summary.snapshot_id,
          paths: task.paths,
          names: task.names,
          added: Number(summary.data_added ?? 0),
          size: Number(summary.total_bytes_processed ?? 0),
        });
      }
      // restic 0.14 prints the short id; the long one stays unambiguous however many snapshots the repository holds.
      const full = JSON.parse(parts.length ? await run(repo, ['snapshots', '--json', ...parts.map((p) => p.snapshot)]) : '[]') as {
        id: string;
        short_id: string;
      }[];
      for (const part of parts) part.snapshot = full.find((s) => s.short_id === part.snapshot)?.id ?? part.snapshot;
      await onProgress?.(100);
      return { parts };
    },

    async list(repo, parts, treePath) {
      const place = treePlace(parts, treePath);
      if (place.kind === 'virtual') {
        const times = await snapshotTimes(repo, [...new Set(place.entries.map((e) => e.part.snapshot))]);
        return place.entries.map(
          (e): BackupEntry => ({
            name: e.name,
            type: e.type,
            size: e.type === 'file' ? e.part.size : 0,
            mtime: times.get(e.part.snapshot) ?? new Date(0).toISOString(),
          }),
        );
      }
      const found = await inspect(repo, place.part.snapshot, place);
      if (found.self.type !== 'dir') throw new BackupError('backups.path_not_found', found.target);
      return found.children
        .map(
          (n): BackupEntry => ({
            name: n.name,
            type: n.type === 'dir' ? 'dir' : n.type === 'symlink' ? 'symlink' : 'file',
            size: n.size ?? 0,
            mtime: n.mtime,
          }),
        )
        .sort((a, b) => ((a.type === 'dir') !== (b.type === 'dir') ? (a.type === 'dir' ? -1 : 1) : a.name.localeCompare(b.name)));
    },

    async download(repo, parts, treePath) {
      const place = snapshotPlace(parts, treePath);
      const found = await inspect(repo, place.part.snapshot, place);
      const name = path.posix.basename(treePath.replace(/\/+$/, '')) || place.part.part;
      const top = { name, mode: permissions(found.self.mode), mtime: new Date(found.self.mtime) };
      if (found.self.type === 'file') {
        const size = found.self.size ?? 0;
        return fileTarGz(await streamOrEmpty(repo, place.part.snapshot, found.target, size), { ...top, size });
      }
      if (found.self.type !== 'dir') throw new BackupError('backups.path_not_found', found.target);
      const tar = await streamRestic(restic, repo, ['dump', '--archive', 'tar', snapshotId(place.part.snapshot), found.target]);
      return folderTarGz(tar, found.target, top);
    },

    async read(repo, parts, treePath) {
      const { stream } = await dumpFile(repo, snapshotPlace(parts, treePath));
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(Buffer.from(chunk));
      return Buffer.concat(chunks).toString('utf8');
    },

    async restore(repo, spec, onProgress, signal) {
      await onProgress?.(1);
      const answer = await restorePart(repo, spec, onProgress, signal);
      await onProgress?.(100);
      return answer;
    },

    async forget(repo, tags, keep) {
      const out = await run(repo, [
        'forget',
        '--json',
        '--tag',
        tags.map(tagOf).join(','),
        '--group-by',
        'tags',
        '--keep-last',
        '1',
        '--keep-daily',
        String(keep.daily),
        '--keep-weekly',
        String(keep.weekly),
        '--keep-monthly',
        String(keep.monthly),
      ]);
      const groups = JSON.parse(out.trim() || '[]') as { remove: { id: string }[] | null }[];
      return { removed: (groups ?? []).flatMap((g) => (g.remove ?? []).map((s) => s.id)) };
    },

    async drop(repo, snapshots) {
      if (snapshots.length > 0) await run(repo, ['forget', ...snapshots.map(snapshotId)]);
    },

    async prune(repo) {
      await run(repo, ['prune']);
    },

    async check(repo) {
      try {
        await run(repo, ['check']);
        return true;
      } catch (error) {
        if (error instanceof BackupError) throw error;
        return false;
      }
    },
  };

  /** The `restic backup` runs of one backup: the parts this machine holds, each with its tags, paths and names. */
  function snapshotTasks(spec: SnapshotSpec) {
    type Task = { part: BackupPart; tags: string[]; args: string[]; paths: string[]; names: string[]; input?: () => Promise<Readable> };
    const tasks: Task[] = [];
    const stdin = (part: BackupPart, file: string, names: string[], input: () => Promise<Readable>, tags: string[] = []) =>
      tasks.push({ part, tags: [`part:${part}`, ...tags], args: ['--stdin', '--stdin-filename', file], paths: [`/${file}`], names, input });
    if (spec.web) {
      const folder = webFolder(spec.web.reference);
      if (existsSync(folder)) tasks.push({ part: 'web', tags: ['part:web'], args: [folder], paths: [folder], names: [spec.web.reference] });
    }
    if (spec.mail) {
      const present = spec.mail.addresses.map((a) => ({ address: a, home: mailHome(a) })).filter((m) => existsSync(m.home));
      if (present.length > 0) {
        const homes = present.map((m) => m.home);
        tasks.push({ part: 'mail', tags: ['part:mail'], args: homes, paths: homes, names: present.map((m) => m.address) });
      }
    }
    for (const name of spec.db?.names ?? []) stdin('db', `${fileName(name)}.sql`, [name], () => needDatabases().dump(name), [`db:${name}`]);
    if (spec.zone) {
      const { domain, text } = spec.zone;
      stdin('zone', `${hostName(domain)}.zone`, [domain], async () => Readable.from([Buffer.from(text)]));
    }
    if (spec.settings) {
      const json = spec.settings.json;
      stdin('settings', 'settings.json', [], async () => Readable.from([Buffer.from(json)]));
    }
    return tasks;
  }

  async function restorePart(
    repo: BackupRepository,
    spec: RestoreSpec,
    onProgress?: (percent: number) => unknown,
    signal?: AbortSignal,
  ): Promise<{ result: string }> {
    if (spec.part === 'db') {
      const name = spec.path.replace(/^\/+/, '');
      const { stream } = await dumpFile(repo, snapshotPlace(spec.parts, `/db/${name}.sql`));
      await onProgress?.(10);
      if (spec.target === 'replace') {
        await needDatabases().restore(name, replacingDump(stream, name));
        return { result: name };
      }
      if (!spec.copyDatabase) throw new Error('a database copy needs copyDatabase');
      await needDatabases().restore(spec.copyDatabase, retargetDump(stream, name, spec.copyDatabase));
      return { result: spec.copyDatabase };
    }
    const place = snapshotPlace(spec.parts, `/${spec.part}${spec.path}`);
    const found = await inspect(repo, place.part.snapshot, place);
    // The live side: this machine's own folders for the same service or mailbox (a node restoring
    // another's backup keeps its files where its configuration says).
    const live =
      spec.part === 'web'
        ? webFolder(place.part.names[0] ?? path.posix.basename(place.root))
        : mailHome(place.part.names[place.part.paths.indexOf(place.root)] ?? '');
    const root = spec.part === 'web' ? webRoot : mailRoot;
    await mkdir(root, { recursive: true });
    const staging = await openStaging(root);
    try {
      await run(repo, ['restore', snapshotId(place.part.snapshot), '--target', staging.data, '--include', found.target], { signal });
      await onProgress?.(80);
      const restored = path.join(staging.data, found.target);
      if (spec.part === 'mail' && spec.target === 'copy') {
        const folder = mailFolderName(spec.mailFolderName ?? `Restored ${spec.stamp}`);
        const maildirInside = place.rest[0] === 'Maildir' ? place.rest.slice(1) : null;
        const restoredMaildir = maildirInside === null ? path.join(restored, 'Maildir') : restored;
        if (place.rest.length > 0 && maildirInside === null) throw new BackupError('backups.path_not_found', spec.path);
        await copyIntoMaildir(restoredMaildir, liveInside(live, 'Maildir'), path.join(staging.dir, 'maildir'), folder);
        return { result: folder };
      }
      const relative = spec.target === 'copy' ? path.join(`restored-${fileName(spec.stamp)}`, ...place.rest) : path.join(...place.rest, '');
      const target = relative === '.' || relative === '' ? live : liveInside(live, relative);
      await mkdirOwned(live, path.dirname(relative));
      await swapInto(staging, restored, target);
      return { result: spec.target === 'copy' ? relative : place.rest.join('/') };
    } finally {
      await closeStaging(staging);
    }
  }
}

/** A live path below `live`, checked with realpath: a link in the live tree pointing out must not redirect the write. */
function liveInside(live: string, relative: string) {
  try {
    return resolveInside(live, relative);
  } catch (error) {
    if (error instanceof InvalidName) throw new BackupError('backups.path_outside', relative);
    throw error;
  }
}

/** A tag goes to restic as `--tag a,b` lists: a comma inside one would split it. */
function tagOf(tag: string) {
  if (!tag || /[,\0\n]/.test(tag)) throw new Error(`invalid backup tag: ${JSON.stringify(tag)}`);
  return tag;
}

const SNAPSHOT_ID = /^[0-9a-f]{8,64}$/;
function snapshotId(id: string) {
  if (!SNAPSHOT_ID.test(id)) throw new Error(`invalid snapshot id: ${JSON.stringify(id)}`);
  return id;
}

/** A name that becomes one file name (a database's dump, a copy's stamp). */
function fileName(name: string) {
  if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/.test(name) || name.includes('..')) throw new Error(`invalid name: ${JSON.stringify(name)}`);
  return name;
}

/** A mail folder's name: one level of Maildir++ (no `.`, which separates levels, nor `/`). */
function mailFolderName(name: string) {
  if (!/^[^./\0\n\t][^./\0\n\t]{0,99}$/.test(name)) throw new Error(`invalid mail folder name: ${JSON.stringify(name)}`);
  return name;
}

/** The folders from `live` down to `relative`, made with the owner of `live` (a copy's `restored-…/` is the customer's to delete). */
async function mkdirOwned(live: string, relative: string) {
  if (relative === '.' || relative === '') return;
  const owner = await stat(live).catch(() => null);
  let current = live;
  for (const segment of relative.split(path.sep)) {
    current = path.join(current, segment);
    if (existsSync(current)) continue;
    await mkdir(current);
    if (owner) await chown(current, owner.uid, owner.gid);
  }
}
