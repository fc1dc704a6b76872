import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { createLogger } from '../src/logger.ts';
import { SESSION_COOKIE } from '../src/modules/session/sessions.ts';
import { openTestStore } from './stores.ts';

/** The server's log lines as `npm start` writes them, collected in memory. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { lines, stream };
}

describe('request logging', () => {
  let cleanup: (() => Promise<void>) | undefined;
  afterEach(async () => cleanup?.());

  async function requestWith(level: 'info' | 'warn') {
    const opened = await openTestStore('sqlite', { logLevel: level });
    const { lines, stream } = capture();
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
      reqId: expect.stringMatching(/^[\w-]{36}$/),
      method: 'POST',
      url: '/p247/user/info/',
      statusCode: 401,
    });
    expect(requestLines(lines)[0].responseTime).toEqual(expect.any(Number));
    expect(JSON.stringify(lines)).not.toMatch(/secret-session-token|c2VjcmV0/);
  });

  it('writes no request line at warn (ATALAYA_LOG_LEVEL=warn)', async () => {
    const { response, lines } = await requestWith('warn');
    expect(response.statusCode).toBe(401);
    expect(requestLines(lines)).toEqual([]);
  });
});
