import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { freshDatabase } from './pg.ts';
import { describeStores } from './stores.ts';

const SERVER = path.resolve(import.meta.dirname, '../src/server.ts');

describeStores('ATALAYA_WORKERS on %s', (kind) => {
  it('starts two server processes sharing one port, and stops them all on SIGTERM', { timeout: 60_000 }, async () => {
    const db = kind === 'postgres' ? await freshDatabase(process.env.ATALAYA_TEST_PG!) : null;
    const server = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', SERVER], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        ATALAYA_DATA_DIR: mkdtempSync(path.join(tmpdir(), 'atalaya-workers-')),
        ATALAYA_DEMO_PASSWORD: 'secret-demo-pass',
        ATALAYA_WORKERS: '2',
        DATABASE_URL: db?.url ?? '',
      },
    });
    let output = '';
    server.stdout.on('data', (chunk) => {
      output += chunk;
    });
    server.stderr.on('data', (chunk) => {
      output += chunk;
    });
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 40_000);
      server.stdout.on('data', () => {
        const match = /Atalaya is running at http:\/\/localhost:(\d+)\/ \(2 server processes\)/.exec(output);
        if (match) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
    });
    const children = () => readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    // The second worker may still be starting when the first one listens.
    for (let i = 0; i < 100 && children().length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    expect(children()).toHaveLength(2);
    for (let i = 0; i < 6; i++) expect((await fetch(`http://127.0.0.1:${port}/p247/ready`)).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => server.on('exit', (code) => resolve(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    await db?.drop();
  });
});
