import type { Config } from '../config/config.ts';
import type { AcmeAccounts } from '../drivers/acme/account.ts';
import type { Drivers } from '../drivers/index.ts';
import type { NodeLinks } from '../nodes/remote.ts';
import type { Outbox } from '../outbox/outbox.ts';
import type { Scheduler } from '../scheduler.ts';
import type { Secrets } from '../secrets.ts';
import type { Store } from '../store/db.ts';
import type { Signals } from '../store/signals.ts';

/**
 * Everything an app (or the CLI) runs on, created once by `createRuntime` (runtime.ts): the config,
 * the store, the sealing key, one driver per area and the outbox with every area's job handlers.
 * Areas receive it; nothing looks drivers up by store or by name elsewhere (docs/architecture.md).
 * The type lives here, under the areas, so that an area can take it without importing the
 * composition root that imports every area.
 */
export interface Runtime {
  config: Config;
  store: Store;
  secrets: Secrets;
  drivers: Drivers;
  outbox: Outbox;
  /** Wake-ups from other processes (LISTEN/NOTIFY on PostgreSQL); closed with the app. */
  signals: Signals;
  /** The node agents connected to this process (decision 040): a move's job calls its target through it. */
  nodes: NodeLinks;
  /** The ACME account free certificates are ordered with (decision 019). */
  acme: AcmeAccounts;
  /** The work a server process repeats (SCHEDULES); a server starts it, the CLI never does. */
  scheduler: Scheduler;
  /** Ends what the runtime holds open: the wake-ups, the registry's sessions (EPP logout). */
  close(): Promise<void>;
}

/** Where the runtime's background work reports its failures; a schedule's carry its name. */
export type BackgroundLog = (err: unknown, context?: { schedule: string; retryInMs: number }) => void;
