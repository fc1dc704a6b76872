import type { DatabaseSync } from 'node:sqlite';

/**
 * This process's own wake-ups on SQLite, the counterpart of PostgreSQL's NOTIFY triggers
 * (migration 0008): temporary triggers (they live with this connection, so another process
 * opening the file never meets a function it lacks) call `atalaya_notify(channel)` when a job is
 * queued or put back to pending, and the handlers of that channel run once the statement is over.
 * Jobs queued by other processes are not seen here: their workers poll.
 */
export interface OwnSignals {
  on(channel: string, handler: () => void): () => void;
}

const TRIGGERS = [
  `CREATE TEMP TRIGGER IF NOT EXISTS job_inserted AFTER INSERT ON main.job
     BEGIN SELECT atalaya_notify('atalaya_job'); END`,
  `CREATE TEMP TRIGGER IF NOT EXISTS job_requeued AFTER UPDATE OF status ON main.job
     WHEN NEW.status = 'pending' AND OLD.status <> 'pending'
     BEGIN SELECT atalaya_notify('atalaya_job'); END`,
];

/**
 * Registers `atalaya_notify` on the connection; `watch()` creates the triggers once the tables
 * exist (after the migrations). A statement that queues many jobs fires one wake-up per channel.
 */
export function ownSignals(db: DatabaseSync): OwnSignals & { watch(): void } {
  const handlers = new Map<string, Set<() => void>>();
  const due = new Set<string>();
  // Handlers run after the statement (and outside node:sqlite's call): a worker's claim then
  // queues behind the writer's transaction and sees its jobs once they are committed.
  const flush = () => {
    const channels = [...due];
    due.clear();
    for (const channel of channels) for (const handler of handlers.get(channel) ?? []) handler();
  };
  db.function('atalaya_notify', (channel) => {
    if (due.size === 0) setImmediate(flush);
    due.add(String(channel));
    return null;
  });
  return {
    on(channel, handler) {
      const set = handlers.get(channel) ?? new Set();
      set.add(handler);
      handlers.set(channel, set);
      return () => {
        set.delete(handler);
      };
    },
    watch() {
      for (const trigger of TRIGGERS) db.exec(trigger);
    },
  };
}
