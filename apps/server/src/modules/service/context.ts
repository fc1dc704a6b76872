import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.ts';
import { driver } from '../../drivers/index.ts';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';

/** What a route or a job handler of the service area needs besides the request. */
export interface ServiceContext {
  store: Store;
  config: Config;
  secrets: Secrets;
  drivers: {
    web: ReturnType<typeof driver<'web'>>;
    mail: ReturnType<typeof driver<'mail'>>;
    ftp: ReturnType<typeof driver<'ftp'>>;
    databases: ReturnType<typeof driver<'databases'>>;
  };
}

// Job handlers are registered once per process but run against whichever store claimed the job.
const contexts = new WeakMap<Kysely<Database>, ServiceContext>();

export function createContext(store: Store, config: Config, secrets: Secrets): ServiceContext {
  const ctx: ServiceContext = {
    store,
    config,
    secrets,
    drivers: {
      web: driver(config, store, 'web'),
      mail: driver(config, store, 'mail'),
      ftp: driver(config, store, 'ftp'),
      databases: driver(config, store, 'databases'),
    },
  };
  contexts.set(store, ctx);
  return ctx;
}

export function contextOf(db: Kysely<Database>): ServiceContext {
  const ctx = contexts.get(db);
  if (!ctx) throw new Error('no service context for this store (the app that owns it is closed)');
  return ctx;
}
