import type { WebSocket } from 'ws';
import type { Config } from '../../config/config.ts';
import { now, type Store } from '../../store/db.ts';
import type { Signals } from '../../store/signals.ts';

export interface Listener {
  userId: number;
  /** The hashed session id: the socket closes when that session ends. */
  sessionId: string;
  socket: WebSocket;
}

// A notice committed late (a slow transaction in another process) may carry an id lower than one
// already read, so each poll rereads a short window and skips the ids it has pushed.
const WINDOW_SECONDS = 10;
export const SESSION_ENDED = 4001;

/**
 * Pushes {"type":"menu"} to a user's open sockets when a notice for them appears in the store, which
 * any process (a server, the admin CLI) may write. Polls once a second while anyone is connected;
 * on PostgreSQL a notice also wakes it at once (NOTIFY from the notice's insert, in any process).
 * The old notices are deleted by the housekeeping (store/housekeeping.ts).
 */
export function createNoticeHub(store: Store, config: Config, log: (err: unknown) => void, intervalMs = 1000, signals?: Signals) {
  const listeners = new Set<Listener>();
  const seen = new Map<number, number>();
  let timer: NodeJS.Timeout | undefined;
  let ticks = 0;
  let unlisten: (() => void) | null = null;

  /** A NOTIFY for a user with a socket here (or a reconnect, which may have missed some): read now. */
  function notified(payload: string | null) {
    if (listeners.size === 0) return;
    if (payload !== null && ![...listeners].some((l) => String(l.userId) === payload)) return;
    void pushNotices(now()).catch(log);
  }

  async function pushNotices(t: number) {
    const users = [...new Set([...listeners].map((l) => l.userId))];
    const rows = await store
      .selectFrom('notice')
      .select(['id', 'user_id', 'at'])
      .where('at', '>=', t - WINDOW_SECONDS)
      .where('user_id', 'in', users)
      .execute();
    const fresh = new Set<number>();
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.set(row.id, row.at);
      fresh.add(row.user_id);
    }
    for (const l of listeners) if (fresh.has(l.userId)) l.socket.send(JSON.stringify({ type: 'menu' }));
    for (const [id, at] of seen) if (at < t - 2 * WINDOW_SECONDS) seen.delete(id);
  }

  /** Closes the sockets of sessions that were ended (sign-out, password change) or timed out. */
  async function dropEndedSessions(t: number) {
    const ids = [...listeners].map((l) => l.sessionId);
    const rows = await store.selectFrom('session').select(['id', 'created_at', 'last_seen_at']).where('id', 'in', ids).execute();
    const { idleMinutes, absoluteHours } = config.session;
    const live = new Set(
      rows.filter((r) => t - r.last_seen_at <= idleMinutes * 60 && t - r.created_at <= absoluteHours * 3600).map((r) => r.id),
    );
    for (const l of listeners) if (!live.has(l.sessionId)) l.socket.close(SESSION_ENDED, 'session ended');
  }

  async function tick() {
    timer = undefined;
    if (listeners.size === 0) return;
    const t = now();
    try {
      await pushNotices(t);
      await dropEndedSessions(t);
      ticks += 1;
      if (ticks % 30 === 0) for (const l of listeners) l.socket.ping(); // keeps proxies from closing idle sockets
    } catch (error) {
      log(error);
    }
    schedule();
  }

  function schedule() {
    if (!timer && listeners.size > 0) timer = setTimeout(tick, intervalMs);
  }

  return {
    async add(listener: Listener) {
      // Notices written before the socket opened are not news to it.
      const old = await store
        .selectFrom('notice')
        .select(['id', 'at'])
        .where('user_id', '=', listener.userId)
        .where('at', '>=', now() - WINDOW_SECONDS)
        .execute();
      for (const row of old) seen.set(row.id, row.at);
      if (listener.socket.readyState !== listener.socket.OPEN) return; // closed while we read
      listeners.add(listener);
      listener.socket.on('close', () => listeners.delete(listener));
      if (signals?.live && !unlisten) {
        unlisten = signals.on('atalaya_notice', notified);
        await signals.ready();
      }
      schedule();
    },
    close() {
      clearTimeout(timer);
      unlisten?.();
      for (const l of listeners) l.socket.close(1001, 'server closing');
      listeners.clear();
    },
  };
}
