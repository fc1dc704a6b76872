import type { Config } from './config/config.ts';
import { acmeAccounts } from './drivers/acme/account.ts';
import { createDrivers } from './drivers/index.ts';
import { type DriverLog, SILENT } from './drivers/log.ts';
import type { BackgroundLog, Runtime } from './kernel/runtime.ts';
import { backupsJobs } from './modules/backups/jobs.ts';
import { backupPruneSchedule, backupSchedule } from './modules/backups/schedule.ts';
import { dnssecJobs } from './modules/dns/dnssec/jobs.ts';
import { dnssecStepSchedule } from './modules/dns/dnssec/schedule.ts';
import { dnsJobs } from './modules/dns/jobs.ts';
import { autoRenewSchedule } from './modules/domain/auto-renew.ts';
import { registryJobs, touchChangeOfJob } from './modules/domain/changes.ts';
import { transferLockSchedule } from './modules/domain/owner.ts';
import { registryPollSchedule } from './modules/domain/poll.ts';
import { expiryWarningSchedule } from './modules/expiry/warnings.ts';
import { tellJobFailed } from './modules/operator/events.ts';
import { operatorJobs } from './modules/operator/jobs.ts';
import { terminationJobs, terminationSchedule } from './modules/operator/termination.ts';
import { serviceJobs } from './modules/service/jobs.ts';
import { dkimRotationSchedule } from './modules/service/mail/dkim.ts';
import { usageSchedule } from './modules/service/usage.ts';
import { renewalSchedule } from './modules/sites/acme/renewal.ts';
import { sitesJobs } from './modules/sites/jobs.ts';
import { createNodeLinks, nodeAwareDrivers } from './nodes/remote.ts';
import { createOutbox } from './outbox/outbox.ts';
import { createScheduler, type Schedule, type Scheduler } from './scheduler.ts';
import { createSecrets, sealingKey } from './secrets.ts';
import type { Store } from './store/db.ts';
import { housekeepingSchedule } from './store/housekeeping.ts';
import type { Job } from './store/schema.ts';
import { createSignals } from './store/signals.ts';

/** The job handlers of every area that has jobs; each closes over the runtime it is given. */
const AREA_JOBS = [serviceJobs, sitesJobs, dnsJobs, dnssecJobs, operatorJobs, terminationJobs, registryJobs, backupsJobs];

/**
 * The work a server process repeats, each run by one process at a time however many share the
 * store, its failures logged with its name and retried with back-off (scheduler.ts).
 */
const SCHEDULES: ((config: Config, runtime: Runtime) => Schedule)[] = [
  (config) => housekeepingSchedule(config.activity.retentionDays),
  renewalSchedule,
  expiryWarningSchedule,
  usageSchedule,
  dnssecStepSchedule,
  dkimRotationSchedule,
  (_config, runtime) => registryPollSchedule(runtime.store, runtime.drivers.registry),
  autoRenewSchedule,
  terminationSchedule,
  transferLockSchedule,
  backupSchedule,
  backupPruneSchedule,
];

/** A job the outbox gave up on: the operator's event, and the domain screen's change shown failed. */
const failed = async (store: Store, job: Job) => {
  await touchChangeOfJob(store, job);
  await tellJobFailed(store, job);
};

export function createRuntime(config: Config, store: Store, log: BackgroundLog = () => {}, driverLog: DriverLog = SILENT): Runtime {
  const secrets = createSecrets(sealingKey(config));
  const signals = createSignals(store, config.databaseUrl, log);
  const outbox = createOutbox(store, { ...config.jobs, signals, log, onFailed: (job) => failed(store, job) });
  const drivers = nodeAwareDrivers(createDrivers(config, store, secrets, driverLog), config.hosting.webRoot);
  const runtime: Runtime = {
    config,
    store,
    secrets,
    drivers,
    outbox,
    signals,
    nodes: createNodeLinks(),
    acme: acmeAccounts(config, store, secrets),
    // Set below: a schedule may use the runtime's drivers.
    scheduler: undefined as unknown as Scheduler,
    async close() {
      await Promise.all([signals.close(), runtime.drivers.registry.close?.()]);
    },
  };
  runtime.scheduler = createScheduler(
    store,
    SCHEDULES.map((schedule) => schedule(config, runtime)),
    (err, context) => log(err, context),
  );
  for (const jobs of AREA_JOBS) runtime.outbox.register(jobs(runtime));
  return runtime;
}
