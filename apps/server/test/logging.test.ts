import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createLogger, linesOncePerTurn, RequestLog, requestIds } from '../src/logger.ts';
import { SESSION_COOKIE } from '../src/modules/session/sessions.ts';
import { captureLogLines } from './log-lines.ts';
import { openTestStore } from './stores.ts';

describe('request logging', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  async function requestWith(level: 'info' | 'warn') {
    const opened = await openTestStore('sqlite', { logLevel: level });
    const { lines, stream } = captureLogLines();
    const app = await buildApp({ config: opened.config, store: opened.store, worker: false, logger: createLogger(opened.config, stream) });
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
    };
    const response = await app.inject({
      method: 'POST',
      url: '/p247/user/info/',
      headers: { cookie: `${SESSION_COOKIE}=secret-session-token`, authorization: 'Basic c2VjcmV0', 'x-dd-request': '1' },
    });
    return { response, lines };
  }

  const requestLines = (lines: Record<string, unknown>[]) => lines.filter((line) => 'url' in line || 'req' in line);

  it('writes one line per request at info, with its id, method, path, status and time, and never the cookie', async () => {
    const { response, lines } = await requestWith('info');
    expect(response.statusCode).toBe(401);
    expect(requestLines(lines)).toHaveLength(1);
    expect(requestLines(lines)[0]).toMatchObject({
      msg: 'request completed',
      reqId: expect.stringMatching(/^[\w-]{8}-[0-9a-z]+$/),
      method: 'POST',
      url: '/p247/user/info/',
      statusCode: 401,
    });
    expect(requestLines(lines)[0].responseTime).toEqual(expect.any(Number));
    expect(JSON.stringify(lines)).not.toMatch(/secret-session-token|c2VjcmV0/);
  });

  it('writes what a request logs itself with the id of its completion line and of the reference its user is shown', async () => {
    const opened = await openTestStore('sqlite', { logLevel: 'info' });
    const { lines, stream } = captureLogLines();
    const app = await buildApp({ config: opened.config, store: opened.store, worker: false, logger: createLogger(opened.config, stream) });
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
    };
    app.get('/p247/test/boom/', { config: { public: 'read' } }, async () => {
      throw new Error('boom');
    });
    const response = await app.inject({ method: 'GET', url: '/p247/test/boom/?language=en' });
    const reference = /Reference: (\S+)$/.exec(response.json().system.errors[0])?.[1];
    expect(reference).toMatch(/^[\w-]{8}-[0-9a-z]+$/);
    const failed = lines.find((line) => line.msg === 'request failed');
    expect(failed).toMatchObject({ level: 50, reqId: reference, err: { message: 'boom' } });
    expect(requestLines(lines)).toEqual([expect.objectContaining({ reqId: reference, statusCode: 500 })]);
  });

  it('gives every request of a process an id of its own, and every process its own prefix', () => {
    const first = requestIds();
    const ids = Array.from({ length: 1000 }, first);
    expect(new Set(ids).size).toBe(1000);
    const prefix = (id: string) => id.slice(0, id.lastIndexOf('-'));
    expect(new Set(ids.map(prefix)).size).toBe(1);
    expect(prefix(requestIds()())).not.toBe(prefix(ids[0]));
  });

  it('writes no request line at warn (ATALAYA_LOG_LEVEL=warn)', async () => {
    const { response, lines } = await requestWith('warn');
    expect(response.statusCode).toBe(401);
    expect(requestLines(lines)).toEqual([]);
  });

  it('writes the completion line as pino would, whatever the path holds', () => {
    const { lines, stream } = captureLogLines();
    const log = createLogger({ logLevel: 'info' }, stream).child({ reqId: 'id-"1"' });
    const urls = ['/p247/domain/1/', '/a"b\\c/?q=ñ&x=\u2028', `/${String.fromCharCode(1, 31)}/`];
    for (const url of urls) {
      const fields = { method: 'GET', url, statusCode: 200, responseTime: 1.25 };
      log.info(fields, 'request completed');
      const reply = { log, statusCode: fields.statusCode, elapsedTime: fields.responseTime } as unknown as FastifyReply;
      new RequestLog().requestCompleted(null, { method: fields.method, url } as FastifyRequest, reply);
    }
    expect(lines).toHaveLength(2 * urls.length);
    for (let i = 0; i < lines.length; i += 2) {
      const { time: pinoTime, ...byPino } = lines[i];
      const { time, ...byHand } = lines[i + 1];
      expect(byHand).toEqual(byPino);
      expect(Object.keys(byHand)).toEqual(Object.keys(byPino));
      expect(time).toEqual(expect.any(Number));
    }
  });

  it('writes the lines of one turn of the event loop in one write, in their order', async () => {
    const writes: string[] = [];
    const lines = linesOncePerTurn({ write: (text: string) => writes.push(text) });
    lines.write('a\n');
    lines.write('b\n');
    lines.write('c\n');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\nb\nc\n']);
    lines.write('d\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  // The logger's own standard output, in a process of its own: the last turn's lines are still
  // waiting when it exits, by process.exit() or by a crash.
  const lastLines = (ending: string) => {
    const logger = path.resolve(import.meta.dirname, '../src/logger.ts');
    const script = `import { createLogger } from ${JSON.stringify(logger)};
      const log = createLogger({ logLevel: 'info' });
      log.info('first'); log.info('last');
      ${ending}`;
    const run = spawnSync(process.execPath, ['--input-type=module', '--disable-warning=ExperimentalWarning', '-e', script], {
      encoding: 'utf8',
    });
    return run.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line).msg);
  };

  it('writes the lines still waiting when the process exits', () => {
    expect(lastLines('process.exit(0);')).toEqual(['first', 'last']);
  });

  it('writes the lines still waiting when the process crashes', () => {
    expect(lastLines("throw new Error('crash');")).toEqual(['first', 'last']);
  });
});
