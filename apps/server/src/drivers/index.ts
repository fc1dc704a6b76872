import path from 'node:path';
import type { Config } from '../config/config.ts';
import type { Secrets } from '../secrets.ts';
import type { Store } from '../store/db.ts';
import type { BackupDriver } from './backups/interface.ts';
import { resticOptions } from './backups/options.ts';
import { resticDriver } from './backups/restic.ts';
import type { DatabaseDriver } from './databases/interface.ts';
import { localDatabaseDriver } from './databases/local.ts';
import { mariaDbDriver } from './databases/mariadb.ts';
import { dnsSettings } from './dns/index.ts';
import type { DnsDriver } from './dns/interface.ts';
import { localDnsDriver } from './dns/local.ts';
import { powerDnsDriver } from './dns/powerdns.ts';
import type { FtpDriver } from './ftp/interface.ts';
import { localFtpDriver } from './ftp/local.ts';
import { packageInstaller } from './installer/installer.ts';
import type { ApplicationInstaller } from './installer/interface.ts';
import { installerOptions } from './installer/options.ts';
import { lazyDriver } from './lazy.ts';
import { type DriverLog, SILENT } from './log.ts';
import type { MailDriver } from './mail/interface.ts';
import { localMailDriver } from './mail/local.ts';
import { type DRIVER_OPTIONS, type DriverArea, defaultDriver } from './options.ts';
import {
  createNginxPool,
  dovecotMailDriver,
  type NginxPool,
  nginxOptionsOf,
  nginxSitesDriver,
  nginxWebDriver,
  pureFtpdDriver,
} from './real/adapters.ts';
import { dovecotOptions } from './real/dovecot/options.ts';
import { eppPolicy, eppSettings } from './registry/epp/options.ts';
import type { RegistryDriver } from './registry/interface.ts';
import { createLocalRegistry } from './registry/local.ts';
import type { SitesDriver } from './sites/interface.ts';
import { localSitesDriver } from './sites/local.ts';
import type { WebDriver } from './web/interface.ts';
import { localWebDriver } from './web/local.ts';

/** What a factory may use: the store (local drivers keep their state there), the config, the key, shared nginx. */
interface FactoryInput {
  store: Store;
  config: Config;
  secrets: Secrets;
  /** The area's `drivers.<area>` object without `driver`. */
  options: Record<string, unknown>;
  nginx: NginxPool;
  log: DriverLog;
  /** The other drivers of the same machine, once all are built (backups dump and load databases through its own). */
  peers: () => Partial<Drivers>;
}
type Factory<T> = (input: FactoryInput) => T;

/** What each area's driver is (a type, not an interface: handlers take it as a plain record). */
export type Drivers = {
  web: WebDriver;
  mail: MailDriver;
  ftp: FtpDriver;
  databases: DatabaseDriver;
  dns: DnsDriver;
  sites: SitesDriver;
  installer: ApplicationInstaller;
  registry: RegistryDriver;
  backups: BackupDriver;
};

/** A factory for each driver of each area `DRIVER_OPTIONS` lists: no more, no fewer. */
type Factories = { [A in DriverArea]: { [N in keyof (typeof DRIVER_OPTIONS)[A]]: Factory<Drivers[A]> } };

/**
 * Every driver by area and name; `config.drivers.<area>.driver` picks one (default `local`), the
 * rest of that object is its options. A new area or backend adds its line here and its options'
 * schema in options.ts.
 */
const FACTORIES: Factories = {
  // nginx takes `drivers.web` and `drivers.sites` merged: both drive one backend, and an operator
  // may put the options in either (decision 008).
  web: {
    local: ({ store, config }) => localWebDriver(store, localWebRoots(config)),
    nginx: ({ config, nginx }) => nginxWebDriver(nginxOptionsOf(config), nginx),
  },
  mail: { local: ({ store }) => localMailDriver(store), dovecot: ({ options }) => dovecotMailDriver(options) },
  ftp: { local: ({ store }) => localFtpDriver(store), pureftpd: ({ options }) => pureFtpdDriver(options) },
  databases: { local: ({ store }) => localDatabaseDriver(store), mariadb: ({ options }) => mariaDbDriver(options) },
  dns: { local: ({ store, secrets }) => localDnsDriver(store, secrets), powerdns: ({ config }) => powerDns(config) },
  sites: {
    local: ({ config }) => localSitesDriver(config.dataDir),
    nginx: ({ config, nginx }) => nginxSitesDriver(config, nginx),
  },
  // The installer unpacks the operator's packages where the sites driver serves from: the data
  // dir's `www/` for the local driver, the provider's `hosting.webRoot` behind a real web server.
  installer: {
    local: ({ config }) => packageInstaller(localWebRoots(config), installerOptions(config)),
  },
  registry: {
    local: ({ store, secrets }) => createLocalRegistry(store, secrets),
    // The options are checked (and the certificates read) at start; the EPP code loads with the first call.
    epp: ({ store, options, log }) => {
      const settings = eppSettings(options);
      return lazyDriver<RegistryDriver, 'policy'>({ policy: eppPolicy(settings) }, EPP_METHODS, async () =>
        (await import('./registry/epp/driver.ts')).createEppRegistry(store, settings, log),
      );
    },
  },
  backups: {
    restic: ({ config, options, peers }) => {
      const settings = resticOptions(options);
      return resticDriver({
        restic: { binary: settings.restic, cacheDir: settings.cacheDir ?? path.join(config.dataDir, 'restic-cache') },
        webRoot: localWebRoots(config),
        mailRoot: mailRootOf(config),
        databases: () => peers().databases,
      });
    },
  },
};

/** Where the mailbox homes are: the dovecot driver's `mailRoot` (its default when the mail area is simulated). */
export function mailRootOf(config: Config) {
  const { driver: _d, ...options } = config.drivers.mail ?? {};
  return dovecotOptions(config.drivers.mail?.driver === 'dovecot' ? options : {}).mailRoot;
}

/** Every method of the EPP registry driver, which the lazy driver forwards (the type makes the list complete). */
const EPP_METHODS: Record<Exclude<keyof RegistryDriver, 'policy'>, true> = {
  info: true,
  create: true,
  updateStatus: true,
  setPrivacy: true,
  setNameServers: true,
  listHosts: true,
  createHost: true,
  updateHost: true,
  deleteHost: true,
  listSecDns: true,
  addSecDns: true,
  removeSecDns: true,
  updateContacts: true,
  authInfo: true,
  createAuthInfo: true,
  pollMessage: true,
  ackMessage: true,
  renew: true,
  restore: true,
  regenerateAuthInfo: true,
  checkAuthInfo: true,
  transferRequest: true,
  transferQuery: true,
  transferApprove: true,
  transferReject: true,
  transferCancel: true,
  close: true,
};

/** Where the local drivers keep the services' files: the data dir's `www/`, or `hosting.webRoot` behind a real web server. */
export function localWebRoots(config: Config) {
  return (config.drivers.sites?.driver ?? 'local') === 'local' ? path.join(config.dataDir, 'www') : config.hosting.webRoot;
}

function powerDns(config: Config): DnsDriver {
  const settings = dnsSettings(config);
  return powerDnsDriver({
    url: settings.url!,
    apiKey: settings.apiKey!,
    serverId: settings.serverId,
    nameservers: settings.nameservers,
    hostmaster: settings.hostmaster,
    timeoutMs: settings.timeoutMs,
  });
}

export type { DriverArea };

/** An area's factories by driver name, as the configuration names them. */
const factoriesOf = <A extends DriverArea>(area: A) => FACTORIES[area] as Record<string, Factory<Drivers[A]> | undefined>;

/** Every configured driver of one runtime, created once; an unknown name stops the start (loadConfig refuses it first, config/drivers.ts). */
export function createDrivers(config: Config, store: Store, secrets: Secrets, log: DriverLog = SILENT): Drivers {
  const nginx = createNginxPool();
  const peers = () => drivers;
  const build = <A extends DriverArea>(area: A) => {
    const { driver: name = defaultDriver(area), ...options } = config.drivers[area] ?? {};
    const factory = factoriesOf(area)[String(name)];
    if (!factory)
      throw new Error(`drivers.${area}.driver: unknown driver "${String(name)}" (use ${Object.keys(FACTORIES[area]).join(', ')})`);
    return factory({ store, config, secrets, options, nginx, log, peers });
  };
  const drivers: Drivers = {
    web: build('web'),
    mail: build('mail'),
    ftp: build('ftp'),
    databases: build('databases'),
    dns: build('dns'),
    sites: build('sites'),
    installer: build('installer'),
    registry: build('registry'),
    backups: build('backups'),
  };
  return drivers;
}

/**
 * The drivers a node's agent applies its panel's calls with: each named area whose configured
 * driver is a real one. An agent has no store, so a `local` driver (state in the panel's store) is
 * left out: a call to that area is refused with the reason.
 */
export function createStorelessDrivers(config: Config, areas: readonly DriverArea[], log: DriverLog = SILENT) {
  const nginx = createNginxPool();
  const noStore = new Proxy({} as Store, {
    get() {
      throw new Error('a node agent has no store');
    },
  });
  const built: Partial<Record<DriverArea, object>> = {};
  for (const area of areas) {
    const { driver: name = defaultDriver(area), ...options } = config.drivers[area] ?? {};
    // The installer's `local` is the node's own disk and packages, not the panel's store.
    if (name === 'local' && area !== 'installer') continue;
    const factory = factoriesOf(area)[String(name)];
    if (!factory)
      throw new Error(`drivers.${area}.driver: unknown driver "${String(name)}" (use ${Object.keys(FACTORIES[area]).join(', ')})`);
    built[area] = factory({ store: noStore, config, secrets: noSecrets, options, nginx, log, peers: () => built as Partial<Drivers> });
  }
  return built;
}

/** An agent holds no sealed secrets: the panel sends each call's passwords in clear over its TLS link. */
const noSecrets: Secrets = {
  encrypt() {
    throw new Error('a node agent seals nothing');
  },
  decrypt() {
    throw new Error('a node agent holds no sealed secrets');
  },
};
