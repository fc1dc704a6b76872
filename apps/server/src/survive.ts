import type { Logger } from './logger.ts';

/**
 * A server process logs an error no code caught and goes on serving (issue 44). Such an error
 * comes from a listener on a socket or a timer (a reply from outside the panel that some code
 * failed to expect, a dropped promise), never from a request, which Fastify answers with a 500:
 * dying for it would let whoever can make it happen keep every customer's panel down. What it
 * was working on is lost; the outbox takes a job up again when its lease ends (decision 014).
 */
export function surviveUncaughtErrors(log: Logger) {
  process.on('uncaughtException', (err, origin) => log.error({ err, origin }, 'uncaught error: logged, the process goes on'));
}
