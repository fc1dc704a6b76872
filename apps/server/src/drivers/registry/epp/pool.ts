import type { EppCommand } from './command.ts';
import { EppFailure } from './errors.ts';
import { rateLimiter } from './rate.ts';
import { closesSession } from './response.ts';
import { type EppLog, LostConnection, openSession, type SentResponse, type Session, type SessionSettings } from './session.ts';

export interface PoolSettings extends SessionSettings {
  sessions: number;
  commandsPerMinute: number;
  reconnectMs: number;
  /** The rate limit's window: a minute, shorter only in tests. */
  rateWindowMs: number;
}

/** How a change whose answer was lost with the connection is checked: true when it took effect. */
export type AppliedCheck = () => Promise<boolean>;

interface Job {
  command: EppCommand;
  resolve: (response: SentResponse) => void;
  reject: (error: Error) => void;
}

const MAX_BACKOFF_MS = 60_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A few EPP sessions sharing one queue of commands. Each session serves one command at a time; a
 * session the registry ended (2500–2502) or whose socket dropped is opened again after a back-off
 * that doubles, and a command that had not run is sent again on it.
 */
export function createPool(settings: PoolSettings, log: EppLog, open = openSession) {
  const queue: Job[] = [];
  const idle: (() => void)[] = [];
  const sessions = new Set<Session>();
  const limiter = rateLimiter(settings.commandsPerMinute, settings.rateWindowMs);
  let closed = false;
  let started = false;

  const nextJob = async (): Promise<Job | null> => {
    while (!closed) {
      const job = queue.shift();
      if (job) return job;
      await new Promise<void>((resolve) => idle.push(resolve));
    }
    return null;
  };

  async function worker(slot: number) {
    let session: Session | null = null;
    let failures = 0;
    const again = (job: Job) => {
      queue.unshift(job);
      wake();
    };
    while (!closed) {
      // A worker without a session waits out its back-off before it takes a job, so that the
      // sessions still open serve the queue meanwhile.
      if (failures > 0 && !session?.alive) await sleep(Math.min(settings.reconnectMs * 2 ** (failures - 1), MAX_BACKOFF_MS));
      const job = await nextJob();
      if (!job) return;
      try {
        if (!session?.alive) {
          if (session) sessions.delete(session);
          session = null;
          try {
            session = await open(settings, log);
          } catch (error) {
            failures++;
            // A login the registry ends (2500–2502, e.g. over its session limit) while other
            // sessions are open: they take the job.
            if (error instanceof EppFailure && closesSession(error.result) && sessions.size > 0) {
              log.warn({ slot, result: error.result }, 'epp: the registry refused another session');
              again(job);
              continue;
            }
            throw error;
          }
          sessions.add(session);
          failures = 0;
        }
        await limiter.turn();
        const response = await session.send(job.command);
        if (closesSession(response.code)) {
          // The registry ended the session before running the command: it goes again on a new one.
          log.warn({ slot, result: response.code, message: response.message }, 'epp: the registry ended the session');
          session.destroy();
          failures = 1;
          again(job);
          continue;
        }
        job.resolve(response);
      } catch (error) {
        if (error instanceof LostConnection) {
          failures = Math.max(failures, 1);
          log.warn({ slot, command: job.command.name, inFlight: error.inFlight }, error.message);
          // Never sent, or a read: safe to send again. A change in flight goes back to its caller,
          // who checks with `info` whether it took effect.
          if (!error.inFlight || job.command.read) {
            again(job);
            continue;
          }
        }
        job.reject(error as Error);
      }
    }
  }

  const wake = () => {
    for (const resolve of idle.splice(0)) resolve();
  };

  /** Sends one command on the first free session, and answers its response, whatever its code. */
  const send = (command: EppCommand): Promise<SentResponse> => {
    if (closed) return Promise.reject(new Error('epp: the registry driver is closed'));
    if (!started) {
      started = true;
      for (let slot = 0; slot < settings.sessions; slot++) void worker(slot);
    }
    return new Promise((resolve, reject) => {
      queue.push({ command, resolve, reject });
      wake();
    });
  };

  return {
    send,

    /**
     * A change: sent, and when the connection dropped with it in flight, `applied` tells whether
     * it took effect; if not, it is sent again. It is never repeated blindly.
     */
    async change(command: EppCommand, applied: AppliedCheck): Promise<SentResponse | null> {
      for (;;) {
        try {
          return await send(command);
        } catch (error) {
          if (!(error instanceof LostConnection && error.inFlight)) throw error;
          if (await applied()) return null;
        }
      }
    },

    /** Logs every session out; commands still queued fail. */
    async close() {
      closed = true;
      wake();
      for (const job of queue.splice(0)) job.reject(new Error('epp: the registry driver is closed'));
      await Promise.all([...sessions].map((s) => s.logout()));
      sessions.clear();
    },
  };
}
