import { type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config/config.ts';

export type { Logger };

/** Headers that carry a session or a password: never written to a log line, whatever the level. */
const REDACTED = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

/**
 * The server's logger: JSON lines on standard output at the configured level, written
 * asynchronously: a synchronous write per request line held up every request behind the pipe
 * (decision 024). What is still buffered is written when the process exits, a crash included;
 * only a SIGKILL can lose the lines of the last moment.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  // No minimum length: an idle server's line is written at once, a busy one's are joined while a
  // write is in flight.
  const stream = destination ?? pino.destination({ dest: 1, sync: false });
  return pino({ level: config.logLevel, redact: REDACTED }, stream);
}

/**
 * One line per request, written when it ends (method, path, status, time), instead of Fastify's
 * two: the line of its arrival is logged at `debug` only, halving what a busy server writes.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
