import type { RedirectType } from '@atalaya/contract';

/**
 * The "sites" part of the web driver (docs/design.md#drivers): one virtual host per site, desired-state
 * oriented. The panel always hands the driver the whole wanted state of one host (its folder,
 * certificate and redirections), never a diff, so a retried or reordered job converges.
 *
 * Implementations: local.ts (state files under the data dir, folders in the web root); a real
 * nginx driver writes one vhost file per `key`, checks it with `nginx -t`, then reloads.
 */

export interface SiteRedirection {
  id: number;
  /** The origin path, normalised: starts with '/', no '..', no query, no repeated slashes. */
  origin: string;
  kind: RedirectType;
  /** An absolute http:// or https:// URL. */
  target: string;
  /** Only for 'frame': plain text, to be escaped by whoever renders it. */
  frame: { title: string; description: string; keywords: string } | null;
}

export interface SiteCertificate {
  /** PEM texts, already checked by the panel (parse, key matches, chain links, covers `host`, not expired). */
  cert: string;
  key: string;
  /** Intermediate certificates, PEM, possibly empty. */
  chain: string;
}

export interface SiteState {
  /**
   * Stable name of the host's configuration: `site-<siteId>` for a site, `apex-<serviceId>` for the
   * service's bare domain (which carries the redirections of a redirect-and-parking service).
   */
  key: string;
  serviceId: number;
  /** The service's reference (punycode), e.g. `example.com`. */
  reference: string;
  /** The full host name served, e.g. `blog.example.com` (punycode). */
  host: string;
  /**
   * The document root relative to the service's web root ('' is the web root itself), already
   * resolved inside it; null when the host has no content of its own (the parking apex).
   */
  folder: string | null;
  ssl: SiteCertificate | null;
  redirections: SiteRedirection[];
  /**
   * The MTA-STS policy (RFC 8461 §3.2) of the service's mail domain, for its `mta-sts` host: the host
   * then answers exactly `/.well-known/mta-sts.txt` with this text as text/plain (and the ACME
   * answers), nothing else. Absent or null for every other host.
   */
  mtaSts?: string | null;
  /** Facts of the service a vhost needs (PHP-FPM socket, parking page). */
  service: { kind: 'normal' | 'parking'; phpVersion: string; parkingActive: boolean; suspended?: boolean };
}

export interface SitesDriver {
  readonly name: string;
  /** Creates or replaces the host's configuration so that it serves exactly `site`. */
  applySite(site: SiteState): Promise<void>;
  /** Removes the host's configuration; removing one that does not exist is not an error. */
  removeSite(key: string): Promise<void>;
  /**
   * HTTP-01 (decision 019): from now on the host of `key` answers
   * `http://<host>/.well-known/acme-challenge/<token>` with `keyAuthorization`, as plain text,
   * from a directory the panel controls, until `removeChallenge`. No reload: the vhost always
   * carries the location.
   */
  putChallenge(key: string, token: string, keyAuthorization: string): Promise<void>;
  /** Stops answering the token; an unknown one is not an error. */
  removeChallenge(key: string, token: string): Promise<void>;
}

/** An ACME token as RFC 8555 §8.3 makes it: base64url, nothing a path could escape with. */
export const ACME_TOKEN = /^[A-Za-z0-9_-]{16,256}$/;

export function checkChallenge(token: string, keyAuthorization: string) {
  if (!ACME_TOKEN.test(token)) throw new Error(`invalid ACME token ${JSON.stringify(token)}`);
  if (!keyAuthorization.startsWith(`${token}.`) || !/^[A-Za-z0-9_.-]+$/.test(keyAuthorization))
    throw new Error('invalid ACME key authorization');
}
