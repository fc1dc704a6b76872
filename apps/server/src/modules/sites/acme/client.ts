import type { Agent } from 'node:https';

type AcmeClientModule = typeof import('acme-client');

/**
 * Agents that trust a private ACME server's CA, by the directory's origin. acme-client talks
 * through one shared axios instance, so the agent is chosen per request by where it goes: a
 * runtime configured for pebble never changes how another reaches Let's Encrypt.
 */
export const acmeAgents = new Map<string, Agent>();

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
      return request;
    });
    return acme;
  });
  return loaded;
}
