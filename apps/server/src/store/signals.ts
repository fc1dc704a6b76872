import type pg from 'pg';
import type { Store } from './db.ts';

/** A wake-up from another process, or `null` when some may have been missed (a reconnect). */
export type SignalHandler = (payload: string | null) => void;

/**
 * Wake-ups from the store. On PostgreSQL one dedicated client per app LISTENs on the channels asked
 * for (NOTIFY is delivered when the writer's transaction commits, in any process, the CLI
 * included); a lost connection is retried every second, and every handler is then called with
 * `null` so it re-reads the store. On SQLite the handlers hear this process's own writes
 * (store/own-signals.ts) and callers keep a poll for other processes'.
 */
export interface Signals {
  /** True on PostgreSQL: wake-ups come from every process, so callers may poll slowly. */
  readonly live: boolean;
  on(channel: string, handler: SignalHandler): () => void;
  /** Resolves once the channels asked for so far are listened to (tests wait for it). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const CHANNEL = /^[a-z_]+$/;

export function createSignals(store: Store, databaseUrl: string | undefined, log: (err: unknown) => void = () => {}): Signals {
  if (store.kind === 'sqlite') return ownOnly(store);
  const handlers = new Map<string, Set<SignalHandler>>();
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;

  const fire = (channel: string, payload: string | null) => {
    for (const handler of handlers.get(channel) ?? []) handler(payload);
  };

  function lost(error: unknown) {
    if (closed) return;
    log(error);
    const dead = client;
    client = null;
    connecting = null;
    dead?.removeAllListeners();
    dead?.on('error', () => {});
    void dead?.end().catch(() => {});
    clearTimeout(retry);
    retry = setTimeout(() => {
      void connect().then(() => {
        for (const channel of handlers.keys()) fire(channel, null);
      });
    }, 1000);
  }

  function connect(): Promise<void> {
    if (!databaseUrl || closed) return Promise.resolve();
    if (connecting) return connecting;
    connecting = (async () => {
      // Only a PostgreSQL store gets here, and openStore has loaded pg already.
      const { default: pg } = await import('pg');
      const next = new pg.Client({ connectionString: databaseUrl });
      next.on('error', lost);
      next.on('end', () => lost(new Error('notification connection ended')));
      next.on('notification', (message) => fire(message.channel, message.payload ?? ''));
      try {
        await next.connect();
        for (const channel of handlers.keys()) await next.query(`LISTEN ${channel}`);
        client = next;
      } catch (error) {
        lost(error);
      }
    })();
    return connecting;
  }

  return {
    live: Boolean(databaseUrl),
    on(channel, handler) {
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
      const set = handlers.get(channel) ?? new Set();
      const fresh = set.size === 0;
      set.add(handler);
      handlers.set(channel, set);
      if (fresh && databaseUrl) {
        // LISTEN twice is harmless; a connection still opening may already have passed this channel.
        void connect()
          .then(() => client?.query(`LISTEN ${channel}`))
          .catch(lost);
      }
      return () => {
        set.delete(handler);
      };
    },
    async ready() {
      await connecting;
      for (const channel of handlers.keys()) await client?.query(`LISTEN ${channel}`);
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      await connecting;
      const c = client;
      client = null;
      if (c) {
        c.removeAllListeners();
        c.on('error', () => {});
        await c.end().catch(() => {});
      }
    },
  };
}

/** SQLite: the store's own wake-ups, nothing from other processes. */
function ownOnly(store: Store): Signals {
  return {
    live: false,
    on(channel, handler) {
      if (!CHANNEL.test(channel)) throw new Error(`bad channel name ${channel}`);
      return store.ownSignals?.on(channel, () => handler('')) ?? (() => {});
    },
    ready: async () => {},
    close: async () => {},
  };
}
