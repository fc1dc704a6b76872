import path from 'node:path';
import type { Config } from '../../config/config.ts';
import { folderBytes } from '../disk-usage.ts';
import type { FtpDriver } from '../ftp/interface.ts';
import type { MailDriver } from '../mail/interface.ts';
import type { SitesDriver } from '../sites/interface.ts';
import type { WebDriver } from '../web/interface.ts';
import { dovecotBackend } from './dovecot/dovecot.ts';
import { tailErrorLog } from './nginx/errorlog.ts';
import { type NginxBackend, nginxBackend } from './nginx/nginx.ts';
import { pureFtpdBackend } from './pureftpd/pureftpd.ts';

/**
 * The real backends behind the driver interfaces of the service area (web, mail, FTP) and the
 * sites area. The web and sites drivers of one runtime share one nginx backend per generated-files
 * directory, so a PHP change and a site change never interleave their `nginx -t` and reload.
 */
export type NginxPool = (options: Record<string, unknown>) => NginxBackend;

/** A runtime's nginx backends, one per `baseDir`. */
export function createNginxPool(): NginxPool {
  const byBase = new Map<string, NginxBackend>();
  return (options) => {
    const backend = nginxBackend(options);
    const existing = byBase.get(backend.options.baseDir);
    if (existing) return existing;
    byBase.set(backend.options.baseDir, backend);
    return backend;
  };
}

/** nginx options for a config: `drivers.sites` and `drivers.web` merged, web root from `hosting`. */
export function nginxOptionsOf(config: Config): Record<string, unknown> {
  const { driver: _d, ...web } = config.drivers.web ?? {};
  const { driver: _d2, ...sites } = config.drivers.sites ?? {};
  return {
    webRoot: path.posix.join(config.hosting.webRoot, '{reference}'),
    defaultPhp: config.hosting.defaultPhpVersion,
    ...web,
    ...sites,
  };
}

export function nginxWebDriver(options: Record<string, unknown>, sharedNginx: NginxPool): WebDriver {
  // The web factory sees only `drivers.web`; the panel's web root arrives with each service
  // (`<hosting.webRoot>/<reference>`), so without an explicit webRoot the driver follows it.
  const backendFor = (site?: { reference: string; webRoot: string }) =>
    sharedNginx(
      options.webRoot || !site ? options : { ...options, webRoot: path.posix.join(path.posix.dirname(site.webRoot), '{reference}') },
    );
  return {
    async applyService(site) {
      const backend = backendFor(site);
      // The panel and nginx must agree on where a service's files are.
      if (path.resolve(site.webRoot) !== backend.webRootOf(site.reference)) {
        throw new Error(
          `web root mismatch: the panel uses ${site.webRoot}, the nginx driver ${backend.webRootOf(site.reference)} (set drivers.web.webRoot to match hosting.webRoot)`,
        );
      }
      await backend.applyService(site.reference, {
        kind: site.kind,
        phpVersion: site.phpVersion,
        parkingActive: site.parkingActive,
        suspended: site.suspended === true,
      });
    },
    removeService: (site) => backendFor(site).removeService(site.reference),
    errorLog: (reference, limit) => tailErrorLog(backendFor().errorLogFile(reference), limit),
    spaceUsed: (site) => folderBytes(backendFor(site).webRootOf(site.reference)),
  };
}

export function nginxSitesDriver(config: Config, sharedNginx: NginxPool): SitesDriver {
  const backend = sharedNginx(nginxOptionsOf(config));
  return {
    name: 'nginx',
    applySite: (site) => backend.applySite(site),
    removeSite: (key) => backend.removeSite(key),
    putChallenge: (key, token, keyAuthorization) => backend.putChallenge(key, token, keyAuthorization),
    removeChallenge: (key, token) => backend.removeChallenge(key, token),
  };
}

export function dovecotMailDriver(options: Record<string, unknown>): MailDriver {
  const b = dovecotBackend(options);
  return {
    ensureMailbox: (box) => b.ensureMailbox(box),
    removeMailbox: (address) => b.removeMailbox(address),
    ensureAlias: (alias) => b.ensureAlias(alias),
    removeAlias: (address) => b.removeAlias(address),
    ensureDkim: (domain, keys) => b.ensureDkim(domain, keys),
    usage: (addresses) => b.usage(addresses),
  };
}

export function pureFtpdDriver(options: Record<string, unknown>): FtpDriver {
  const b = pureFtpdBackend(options);
  return { ensureUser: (account) => b.ensureUser(account), removeUser: (login) => b.removeUser(login) };
}
