import type { Config } from '../config/config.ts';
import type { Store } from '../store/db.ts';
import type { DatabaseDriver } from './databases/interface.ts';
import { localDatabaseDriver } from './databases/local.ts';
import { mariaDbDriver } from './databases/mariadb.ts';
import type { FtpDriver } from './ftp/interface.ts';
import { localFtpDriver } from './ftp/local.ts';
import type { MailDriver } from './mail/interface.ts';
import { localMailDriver } from './mail/local.ts';
import { dovecotMailDriver, nginxOptionsOf, nginxWebDriver, pureFtpdDriver } from './real/adapters.ts';
import type { WebDriver } from './web/interface.ts';
import { localWebDriver } from './web/local.ts';

type Factory<T> = (store: Store, options: Record<string, unknown>, config: Config) => T;

/**
 * Every driver by area and name; `config.drivers.<area>.driver` picks one (default `local`), the
 * rest of that object is its options. An area adds its line here (e.g. `dns: { local, powerdns }`).
 */
const FACTORIES = {
  // nginx takes `drivers.web` and `drivers.sites` merged: both drive one backend, and an operator
  // may put the options in either (decision 008).
  web: { local: localWebDriver, nginx: (_s, _o, config) => nginxWebDriver(nginxOptionsOf(config)) } as Record<string, Factory<WebDriver>>,
  mail: { local: localMailDriver, dovecot: (_s, o) => dovecotMailDriver(o) } as Record<string, Factory<MailDriver>>,
  ftp: { local: localFtpDriver, pureftpd: (_s, o) => pureFtpdDriver(o) } as Record<string, Factory<FtpDriver>>,
  databases: { local: localDatabaseDriver, mariadb: (_s, o) => mariaDbDriver(o) } as Record<string, Factory<DatabaseDriver>>,
};

export type DriverArea = keyof typeof FACTORIES;
type DriverOf<A extends DriverArea> = ReturnType<(typeof FACTORIES)[A][string]>;

const cache = new WeakMap<Store, Map<DriverArea, unknown>>();

/** The configured driver of an area for this store (one instance each); unknown names stop the start. */
export function driver<A extends DriverArea>(config: Config, store: Store, area: A): DriverOf<A> {
  const byArea = cache.get(store) ?? new Map<DriverArea, unknown>();
  cache.set(store, byArea);
  if (!byArea.has(area)) {
    const { driver: name = 'local', ...options } = config.drivers[area] ?? {};
    const factory = FACTORIES[area][String(name)];
    if (!factory) throw new Error(`drivers.${area}.driver: unknown driver "${String(name)}" (use ${Object.keys(FACTORIES[area]).join(', ')})`);
    byArea.set(area, factory(store, options, config));
  }
  return byArea.get(area) as DriverOf<A>;
}
