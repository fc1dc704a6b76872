import { AsyncLocalStorage } from 'node:async_hooks';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { BackupRepository, StoredPart } from '../drivers/backups/interface.ts';
import type { Drivers } from '../drivers/index.ts';
import { PermanentJobError } from '../outbox/permanent.ts';
import type { Store } from '../store/db.ts';
import { CHUNK_BYTES, NODE_AREAS, type NodeArea, PROGRESS_ARG, type RemoteArea } from './protocol.ts';

/** Sends one driver call to the connected agent and resolves with its answer. */
export type RemoteCall = (
  area: RemoteArea,
  method: string,
  args: unknown[],
  job: number,
  onProgress?: (percent: number) => unknown,
) => Promise<unknown>;

/** A connected agent as this panel process holds it: how to call it and what it said of itself. */
export interface NodeLink {
  call: RemoteCall;
  properties: Record<string, Record<string, unknown>>;
  name: string;
}

interface NodeScope extends NodeLink {
  /** The job whose attempt makes the calls: the agent logs it with each call it applies. */
  job: number;
}

/** The node whose job the current async context applies: set by its agent's worker around each attempt. */
const scope = new AsyncLocalStorage<NodeScope>();

export const inNode = <T>(node: NodeScope, run: () => Promise<T>) => scope.run(node, run);

/** Runs `run` with the panel's own drivers, even inside a node job's attempt (a move off the panel's machine). */
export const onPanel = <T>(run: () => Promise<T>) => scope.exit(run);

/** Thrown for a call to a node whose agent is not connected to this panel process: the job tries again later. */
export class NodeAway extends Error {}

/**
 * The agents connected to this panel process, by node id (the node port's listener keeps it). A
 * job that works on a second node (a move) runs part of itself inside that node's scope with `on`.
 */
export interface NodeLinks {
  set(node: number, link: NodeLink): void;
  drop(node: number, link: NodeLink): void;
  on<T>(node: number, job: number, run: () => Promise<T>): Promise<T>;
}

export function createNodeLinks(): NodeLinks {
  const links = new Map<number, NodeLink>();
  return {
    set: (node, link) => void links.set(node, link),
    drop(node, link) {
      if (links.get(node) === link) links.delete(node);
    },
    on(node, job, run) {
      const link = links.get(node);
      if (!link) return Promise.reject(new NodeAway(`the agent of node ${node} is not connected to this panel process`));
      return inNode({ ...link, job }, run);
    },
  };
}

/** A call to the agent of the node whose scope this is; outside a node's scope there is nothing to call. */
export function callNode(area: RemoteArea, method: string, ...args: unknown[]) {
  const node = scope.getStore();
  if (!node) throw new PermanentJobError(`${area}.${method} runs on a node only`);
  return node.call(area, method, args, node.job);
}

/**
 * The panel's web root in a call's arguments, replaced by the node's (which its agent reported):
 * the handlers compute paths from the panel's `hosting.webRoot`, a node keeps its sites where its
 * own configuration says.
 */
function rebase(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') {
    if (value === from) return to;
    return value.startsWith(`${from}/`) ? path.posix.join(to, value.slice(from.length + 1)) : value;
  }
  if (Array.isArray(value)) return value.map((v) => rebase(v, from, to));
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebase(v, from, to)]));
  }
  return value;
}

/** A driver whose every method is a call to the agent; its plain values are the ones the agent reported. */
function remoteDriver(area: NodeArea, node: NodeScope, panelWebRoot: string) {
  const nodeWebRoot = node.properties.hosting?.webRoot;
  return new Proxy(
    {},
    {
      get(_target, property) {
        if (typeof property !== 'string' || property === 'then') return undefined;
        const value = node.properties[area]?.[property];
        if (value !== undefined) return value;
        // Signals stay on the panel (the agent applies the call with its own time limit); a
        // function argument is a progress callback, which the agent's progress messages call.
        return (...args: unknown[]) => {
          const onProgress = args.find((a) => typeof a === 'function') as ((percent: number) => unknown) | undefined;
          const plain = args.map((a) => (typeof a === 'function' ? PROGRESS_ARG : a instanceof AbortSignal ? undefined : a));
          return node.call(
            area,
            property,
            typeof nodeWebRoot === 'string' && nodeWebRoot !== panelWebRoot
              ? plain.map((a) => rebase(a, panelWebRoot, nodeWebRoot))
              : plain,
            node.job,
            onProgress,
          );
        };
      },
    },
  );
}

/**
 * The runtime's drivers, seen from a job: inside a node job's attempt each node area is the
 * agent's (the handler runs unchanged, its driver calls go over the wire), elsewhere the panel's
 * own. The installer is the node's too: it fetches and unpacks the package there.
 */
export function nodeAwareDrivers(local: Drivers, panelWebRoot: string): Drivers {
  const drivers = { ...local };
  for (const area of NODE_AREAS) {
    Object.defineProperty(drivers, area, {
      enumerable: true,
      get: () => {
        const node = scope.getStore();
        return node ? remoteDriver(area, node, panelWebRoot) : local[area];
      },
    });
  }
  return drivers;
}

/**
 * Runs a read outside a job (a dump, the error log) where the item's service is placed: on its
 * node's agent when it has one (connected to this panel process, else NodeAway), else here.
 */
export async function onItemNode<T>(runtime: { store: Store; nodes: NodeLinks }, itemId: number, run: () => Promise<T>): Promise<T> {
  const item = await runtime.store.selectFrom('item').select('node_id').where('id', '=', itemId).executeTakeFirst();
  return item?.node_id == null ? run() : runtime.nodes.on(item.node_id, 0, run);
}

/** A file in a node's spool, read a chunk at a time through its agent and dropped from the spool at the end. */
export function spoolStream(nodes: NodeLinks, node: number, spooled: { id: string; size: number }): Readable {
  return Readable.from(
    (async function* () {
      try {
        for (let offset = 0; offset < spooled.size; offset += CHUNK_BYTES) {
          const data = await nodes.on(node, 0, () => callNode('transfer', 'read', spooled.id, offset));
          yield Buffer.from(String(data), 'base64');
        }
      } finally {
        await nodes.on(node, 0, () => callNode('transfer', 'drop', spooled.id)).catch(() => {});
      }
    })(),
  );
}

/** A database's dump from the server it lives on: the service's node (through its agent's spool), else the panel's driver. */
export async function dumpDatabase(runtime: { store: Store; nodes: NodeLinks; drivers: Drivers }, itemId: number, name: string) {
  const item = await runtime.store.selectFrom('item').select('node_id').where('id', '=', itemId).executeTakeFirst();
  const node = item?.node_id;
  if (node == null) return runtime.drivers.databases.dump(name);
  const spooled = (await runtime.nodes.on(node, 0, () => callNode('transfer', 'dump', name))) as { id: string; size: number };
  return spoolStream(runtime.nodes, node, spooled);
}

/**
 * A backup's file or folder as .tar.gz from where the service is: restic runs on its node (the
 * repository is reached from there, the panel never carries the data but this download), through
 * the agent's spool; else the panel's own driver.
 */
export async function downloadBackup(
  runtime: { store: Store; nodes: NodeLinks; drivers: Drivers },
  itemId: number,
  repo: BackupRepository,
  parts: StoredPart[],
  treePath: string,
) {
  const item = await runtime.store.selectFrom('item').select('node_id').where('id', '=', itemId).executeTakeFirst();
  const node = item?.node_id;
  if (node == null) return runtime.drivers.backups.download(repo, parts, treePath);
  const spooled = (await runtime.nodes.on(node, 0, () => callNode('transfer', 'backupDownload', repo, parts, treePath))) as {
    id: string;
    size: number;
  };
  return spoolStream(runtime.nodes, node, spooled);
}
