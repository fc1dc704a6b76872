import { AsyncLocalStorage } from 'node:async_hooks';
import type { Drivers } from '../drivers/index.ts';
import { PermanentJobError } from '../outbox/permanent.ts';
import { NODE_AREAS, type NodeArea } from './protocol.ts';

/** Sends one driver call to the connected agent and resolves with its answer. */
export type RemoteCall = (area: NodeArea, method: string, args: unknown[], job: number) => Promise<unknown>;

interface NodeScope {
  call: RemoteCall;
  properties: Record<string, Record<string, unknown>>;
  name: string;
  /** The job whose attempt makes the calls: the agent logs it with each call it applies. */
  job: number;
}

/** The node whose job the current async context applies: set by its agent's worker around each attempt. */
const scope = new AsyncLocalStorage<NodeScope>();

export const inNode = <T>(node: NodeScope, run: () => Promise<T>) => scope.run(node, run);

/** A driver whose every method is a call to the agent; its plain values are the ones the agent reported. */
function remoteDriver(area: NodeArea, node: NodeScope) {
  return new Proxy(
    {},
    {
      get(_target, property) {
        if (typeof property !== 'string' || property === 'then') return undefined;
        const value = node.properties[area]?.[property];
        if (value !== undefined) return value;
        // Functions and signals stay on the panel: the agent applies the call with its own time limit.
        return (...args: unknown[]) =>
          node.call(
            area,
            property,
            args.map((a) => (typeof a === 'function' || a instanceof AbortSignal ? undefined : a)),
            node.job,
          );
      },
    },
  );
}

/**
 * The runtime's drivers, seen from a job: inside a node job's attempt each node area is the
 * agent's (the handler runs unchanged, its driver calls go over the wire), elsewhere the panel's
 * own. The installer unpacks on the panel's disk, so a node's job cannot use it yet.
 */
export function nodeAwareDrivers(local: Drivers): Drivers {
  const drivers = { ...local };
  for (const area of NODE_AREAS) {
    Object.defineProperty(drivers, area, {
      enumerable: true,
      get: () => {
        const node = scope.getStore();
        return node ? remoteDriver(area, node) : local[area];
      },
    });
  }
  Object.defineProperty(drivers, 'installer', {
    enumerable: true,
    get: () => {
      const node = scope.getStore();
      if (!node) return local.installer;
      throw new PermanentJobError(`installing applications on a node (${node.name}) is not supported yet`);
    },
  });
  return drivers;
}
