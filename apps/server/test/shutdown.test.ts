import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestApp, type TestContext } from './stores.ts';

describe('shutting down', () => {
  let ctx: TestContext;
  let started: () => void;
  const handlerStarted = new Promise<void>((resolve) => {
    started = resolve;
  });
  beforeAll(async () => {
    ctx = await openTestApp('sqlite');
    ctx.app.get('/p247/test/slow/', { config: { public: 'read' } }, async () => {
      started();
      await new Promise((resolve) => setTimeout(resolve, 300));
      return { data: { finished: true } };
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => ctx.close());

  it('lets an in-flight request finish when the server closes', async () => {
    const { port } = ctx.app.server.address() as { port: number };
    const inFlight = fetch(`http://127.0.0.1:${port}/p247/test/slow/`);
    await handlerStarted; // the request is in the server's hands (a fixed wait lost that race under load)
    const closing = ctx.app.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((await response.json()).data).toEqual({ finished: true });
    await closing;
  });

  it('exits cleanly on SIGTERM, logging JSON lines without the demo password', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-sigterm-'));
    const server = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', path.resolve(import.meta.dirname, '../src/server.ts')],
      {
        env: {
          ...process.env,
          PORT: '0',
          HOST: '127.0.0.1',
          ATALAYA_DATA_DIR: dataDir,
          ATALAYA_DEMO_PASSWORD: 'secret-demo-pass',
          DATABASE_URL: '',
        },
      },
    );
    let output = '';
    server.stdout.on('data', (chunk) => {
      output += chunk;
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
      server.stdout.on('data', () => {
        if (output.includes('Atalaya is running at')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    server.kill('SIGTERM');
    const code = await new Promise((resolve) => server.on('exit', resolve));
    expect(code).toBe(0);
    const logLines = output.split('\n').filter((line) => line.startsWith('{'));
    expect(logLines.some((line) => JSON.parse(line).msg?.includes('shutting down'))).toBe(true);
    expect(logLines.join('\n')).not.toContain('secret-demo-pass');
  });
});
