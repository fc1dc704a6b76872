import { AsyncLocalStorage } from 'node:async_hooks';
import type { Agent } from 'node:https';
import { createRequire } from 'node:module';
import { CaUnreachable } from './unreachable.ts';

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

/** Failures of a request that no retry within seconds changes: the CA's address or trust is wrong, or it is down. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

interface RequestConfig {
  url?: string;
  signal?: AbortSignal;
  retryAttempt?: number;
}
type Adapter = (config: RequestConfig) => Promise<unknown>;

/**
 * acme-client retries every request that got no answer (5 times, 75 s in all) and then fails with
 * "Cannot read properties of undefined (reading 'config')", the answer it never got. Its HTTP
 * adapter, wrapped, says what happened instead: a CA refused, unknown, unroutable or untrusted at
 * once, and one that keeps dropping the connection once acme-client's retries are spent. The error
 * carries no request, so acme-client's retry passes it straight on (as with the job's signal).
 */
function explainingUnreachable(http: Adapter, retries: () => number): Adapter {
  return async (config) => {
    try {
      return await http(config);
    } catch (error) {
      const { code, response } = error as { code?: string; response?: unknown };
      if (response !== undefined || config.signal?.aborted || code === 'ERR_CANCELED') throw error;
      const spent = (config.retryAttempt ?? 0) >= retries();
      if (code && (UNREACHABLE.has(code) || spent)) throw new CaUnreachable(config.url ? new URL(config.url).origin : '', code);
      throw error;
    }
  };
}

/**
 * acme-client, loaded on the first order or renewal: loaded at start it adds to every idle
 * server's memory (decision 024), and certificates are ordered rarely.
 */
export function acmeClient(): Promise<AcmeClientModule> {
  loaded ??= import('acme-client').then((acme) => {
    // The axios acme-client itself requires, for the HTTP adapter its requests go through.
    const axios = createRequire(createRequire(import.meta.url).resolve('acme-client'))('axios') as {
      getAdapter(name: string): Adapter;
    };
    const settings = (acme.axios.defaults as unknown as { acmeSettings: { retryMaxAttempts: number } }).acmeSettings;
    acme.axios.defaults.adapter = explainingUnreachable(axios.getAdapter('http'), () => settings.retryMaxAttempts) as never;
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
