import type { Config } from './config/config.ts';
import { createDrivers, type Drivers } from './drivers/index.ts';
import { type DriverLog, SILENT } from './drivers/log.ts';
import { dnsJobs } from './modules/dns/jobs.ts';
import { serviceJobs } from './modules/service/jobs.ts';
import { type AcmeAccounts, acmeAccounts } from './modules/sites/acme/account.ts';
import { sitesJobs } from './modules/sites/jobs.ts';
import { createOutbox, type Outbox } from './outbox/outbox.ts';
import { probeJobs } from './outbox/probe.ts';
import { createSecrets, type Secrets, sealingKey } from './secrets.ts';
import type { Store } from './store/db.ts';
import { createSignals, type Signals } from './store/signals.ts';

/**
 * Everything an app (or the CLI) runs on, created once by `createRuntime`: the config, the store,
 * the sealing key, one driver per area and the outbox with every area's job handlers. Areas receive
 * it; nothing looks drivers up by store or by name elsewhere (docs/architecture.md).
 */
export interface Runtime {
  config: Config;
  store: Store;
  secrets: Secrets;
  drivers: Drivers;
  outbox: Outbox;
  /** Wake-ups from other processes (LISTEN/NOTIFY on PostgreSQL); closed with the app. */
  signals: Signals;
  /** The ACME account free certificates are ordered with (decision 019). */
  acme: AcmeAccounts;
  /** Ends what the runtime holds open: the wake-ups, the registry's sessions (EPP logout). */
  close(): Promise<void>;
}

/** The job handlers of every area that has jobs; each closes over the runtime it is given. */
const AREA_JOBS = [serviceJobs, sitesJobs, dnsJobs];

export function createRuntime(
  config: Config,
  store: Store,
  log: (err: unknown) => void = () => {},
  driverLog: DriverLog = SILENT,
): Runtime {
  const secrets = createSecrets(sealingKey(config));
  const signals = createSignals(store.kind === 'postgres' ? config.databaseUrl : undefined, log);
  const outbox = createOutbox(store, { ...config.jobs, signals, log });
  const runtime: Runtime = {
    config,
    store,
    secrets,
    drivers: createDrivers(config, store, secrets, driverLog),
    outbox,
    signals,
    acme: acmeAccounts(config, store, secrets),
    async close() {
      await Promise.all([signals.close(), runtime.drivers.registry.close?.()]);
    },
  };
  for (const jobs of AREA_JOBS) runtime.outbox.register(jobs(runtime));
  outbox.register(probeJobs(store));
  return runtime;
}
