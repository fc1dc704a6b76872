import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import type { FastifyInstance } from 'fastify';

/**
 * The names the panel answers to. A browser tricked by DNS rebinding sends the attacker's name in
 * Host (and Origin), so a name is accepted only when it cannot be an attacker's: the host of
 * `publicOrigin`, a loopback name (localhost, *.localhost, 127.0.0.0/8, ::1), or an address the
 * server listens on. Anything else must be named in `publicOrigin`.
 */

/** The host name of a Host header or URL host: no port, no brackets, lower case, no trailing dot. */
export function hostnameOf(host: string): string {
  const value = host.trim().toLowerCase();
  const name = value.startsWith('[') ? value.slice(1, value.indexOf(']')) : value.replace(/:\d*$/, '');
  return name.replace(/\.$/, '');
}

export function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (isIP(hostname) === 4) return hostname.startsWith('127.');
  if (isIP(hostname) === 6) return hostname === '::1' || /^::ffff:127\./.test(hostname);
  return false;
}

const isWildcard = (address: string) => address === '0.0.0.0' || address === '::' || address === '';

/** The addresses behind a listening address: every interface's for 0.0.0.0 and ::. */
function addressesOf(address: string): Set<string> {
  if (!isWildcard(address)) return new Set([address.toLowerCase()]);
  const all = new Set<string>();
  for (const list of Object.values(networkInterfaces())) {
    for (const entry of list ?? []) all.add(entry.address.toLowerCase().replace(/%.*$/, ''));
  }
  return all;
}

const ADDRESSES_TTL_MS = 60_000;
const VERDICTS = 64;

/** A check of Host names for one app: its public origin's host, loopback, its listening addresses. */
export function allowedHosts(app: FastifyInstance) {
  const publicHost = app.runtime.config.publicOrigin ? hostnameOf(new URL(app.runtime.config.publicOrigin).host) : null;
  const listeningAddresses = () => {
    const bound = app.server.address();
    return bound && typeof bound === 'object' ? addressesOf(bound.address) : new Set<string>();
  };
  // Interfaces may change while the server runs (DHCP, a VPN): they are looked up again after a
  // minute, and the verdicts reached with them are dropped then. Every request asks about the same
  // few Host values, so each verdict is kept till then; at most `VERDICTS`, the header being the client's.
  let current = { at: 0, addresses: null as Set<string> | null, verdicts: new Map<string, boolean>() };
  const allowed = (name: string) => {
    if (name === publicHost || isLoopback(name)) return true;
    if (isIP(name) === 0) return false;
    current.addresses ??= listeningAddresses();
    return current.addresses.has(name);
  };
  return (host: string | undefined): boolean => {
    if (!host) return false;
    const now = Date.now();
    if (now - current.at > ADDRESSES_TTL_MS) current = { at: now, addresses: null, verdicts: new Map() };
    let verdict = current.verdicts.get(host);
    if (verdict === undefined) {
      verdict = allowed(hostnameOf(host));
      if (current.verdicts.size >= VERDICTS) current.verdicts.clear();
      current.verdicts.set(host, verdict);
    }
    return verdict;
  };
}

/**
 * What the start says when the panel listens beyond loopback without `publicOrigin`: it then
 * answers only to loopback names and its own addresses, never to a DNS name.
 */
export function originWarning(config: { host: string; publicOrigin?: string }): string | null {
  if (config.publicOrigin) return null;
  const host = hostnameOf(config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host);
  if (isLoopback(host)) return null;
  return (
    `warning: listening on ${config.host} without publicOrigin: the panel answers only to loopback names and ` +
    'its own IP addresses (a DNS name is refused, which keeps DNS rebinding out). Set publicOrigin ' +
    '(ATALAYA_PUBLIC_ORIGIN), e.g. https://panel.example.com, to serve it under a name.'
  );
}
