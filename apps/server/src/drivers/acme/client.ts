import { AsyncLocalStorage } from 'node:async_hooks';
import type { Agent } from 'node:https';

type AcmeClientModule = typeof import('acme-client');

/**
 * Agents that trust a private ACME server's CA, by the directory's origin. acme-client talks
 * through one shared axios instance, so the agent is chosen per request by where it goes: a
 * runtime configured for pebble never changes how another reaches Let's Encrypt.
 */
export const acmeAgents = new Map<string, Agent>();

/**
 * The abort signal of the job a request is made for. acme-client takes no signal of its own, so
 * the shared axios instance reads the caller's here: a job past its time limit (or given up at
 * shutdown) stops its request, and no retry of acme-client's starts after that.
 */
export const acmeJobSignal = new AsyncLocalStorage<AbortSignal>();

let loaded: Promise<AcmeClientModule> | null = null;

/**
 * acme-client, loaded on the first order or renewal: loaded at start it adds to every idle
 * server's memory (decision 024), and certificates are ordered rarely.
 */
export function acmeClient(): Promise<AcmeClientModule> {
  loaded ??= import('acme-client').then((acme) => {
    acme.axios.interceptors.request.use((request) => {
      const origin = request.url ? new URL(request.url).origin : '';
      const agent = acmeAgents.get(origin);
      if (agent) request.httpsAgent = agent;
      const signal = acmeJobSignal.getStore();
      if (signal) {
        // Thrown without the request attached, so acme-client's retry passes it straight on.
        signal.throwIfAborted();
        request.signal = signal;
      }
      return request;
    });
    return acme;
  });
  return loaded;
}
