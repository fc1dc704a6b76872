import { randomBytes } from 'node:crypto';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from './config/config.ts';

export type { Logger };

/** Headers that carry a session or a password: never written to a log line, whatever the level. */
const REDACTED = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

/**
 * The server's logger: JSON lines on standard output at the configured level. The lines of one
 * turn of the event loop go out in one synchronous write (`linesOncePerTurn`).
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: DestinationStream): Logger {
  return pino({ level: config.logLevel, redact: REDACTED }, destination ?? standardOutput());
}

/**
 * A destination that keeps the lines written in one turn of the event loop and hands them to
 * `target` in one write once that turn's I/O is done (`setImmediate`), in the order they came.
 * Under load a turn answers many requests: one write for all their lines, instead of one per line,
 * was far cheaper for a small call like `config/get` (decision 024). An asynchronous write per line was
 * the costly part, each a trip through libuv's thread pool; a synchronous write per line held every
 * request up behind the pipe.
 */
export function linesOncePerTurn(target: { write(text: string): unknown }) {
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const text = pending.join('');
    pending = [];
    target.write(text);
  };
  return {
    write(line: string) {
      if (pending.push(line) === 1) setImmediate(flush);
    },
    /** Writes what is waiting now: on exit, so that no line of the last turn is lost. */
    flush,
  };
}

let stdout: DestinationStream | undefined;

/**
 * Standard output, shared by every logger of the process. Its writes are synchronous, as Node's own
 * `process.stdout` is on Linux for files, terminals and pipes; pino's destination retries a full
 * pipe. What is still waiting is written when the process exits, a crash included; only a SIGKILL
 * can lose the lines of the last turn.
 */
function standardOutput(): DestinationStream {
  if (!stdout) {
    const lines = linesOncePerTurn(pino.destination({ dest: 1, sync: true }));
    process.once('exit', lines.flush);
    stdout = lines;
  }
  return stdout;
}

/**
 * One line per request, written when it ends (method, path, status, time, beside the request's id),
 * instead of Fastify's two: the line of its arrival, with its headers, is logged at `debug` only.
 * The fields are flat: the `req` and `res` serialisers and the redaction's copy of a nested
 * object cost as much as the rest of the line, for fields that hold no header. The line goes
 * through the request's child logger like any other, so its bindings (pid, hostname, request id),
 * level and format are pino's by construction.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest) {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply) {
    const line = { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

/**
 * Fastify's logging options for the panel's logger, or for none (tests run silent): one line per
 * request (`RequestLog`) and a cheap id per request. The server and the bench's Fastify reference
 * both take these, so the reference measures the panel's own logging.
 */
export function requestLogging(logger: Logger | undefined) {
  const genReqId = requestIds();
  if (!logger) return { logger: false, genReqId } as const;
  return { loggerInstance: logger as FastifyBaseLogger, logController: new RequestLog(), genReqId };
}

/**
 * Request ids: a random prefix per process and a counter. The prefix keeps them apart across the
 * processes and restarts of one installation, so the id a failed answer shows finds its one log
 * line; a UUID per request left garbage for the collector on every request (decision 024).
 */
export function requestIds(): () => string {
  const prefix = randomBytes(6).toString('base64url');
  let served = 0;
  return () => `${prefix}-${(++served).toString(36)}`;
}
