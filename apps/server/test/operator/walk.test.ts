import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { freePort, missingBinaries } from '../backends/harness/common.ts';
import { describeStores, openTestStore } from '../stores.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const SERVER = path.join(ROOT, 'apps/server/src/server.ts');
const GUIDE = path.join(ROOT, 'docs/operator-api.md');

/** The guide's `sh` blocks, in order: the walk-through it says runs as written. */
const walk = () => [...readFileSync(GUIDE, 'utf8').matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((m) => m[1]).join('\n');

const skip = missingBinaries('/usr/bin/curl', '/usr/bin/jq', '/usr/bin/openssl', '/bin/bash');

describeStores('the operator guide’s curl walk-through, run as written against a started server on %s', (kind) => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let server: ChildProcess | undefined;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    opened = await openTestStore(kind);
    env = {
      ...process.env,
      ATALAYA_DATA_DIR: opened.config.dataDir,
      DATABASE_URL: opened.config.databaseUrl ?? '',
    };
    // What `npm start` runs once the web app is built: the server, listening on its own port.
    const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', SERVER], {
      cwd: ROOT,
      env: { ...env, PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server = child;
    let output = '';
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the server did not start:\n${output}`)), 90_000);
      const read = (chunk: Buffer) => {
        output += chunk;
        const found = /Atalaya is running at http:\/\/localhost:(\d+)\//.exec(output)?.[1];
        if (found) {
          clearTimeout(timer);
          resolve(Number(found));
        }
      };
      child.stdout?.on('data', read);
      child.stderr?.on('data', read);
      child.on('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${output}`)));
    });
    env = { ...env, ATALAYA_URL: `http://127.0.0.1:${port}`, HOOK_PORT: String(await freePort()) };
  }, 100_000);
  afterAll(async () => {
    server?.kill('SIGTERM');
    await opened?.cleanup();
  });

  it.skipIf(skip)(
    'creates, suspends with a verified webhook, unsuspends, registers and renews a domain, and terminates',
    {
      timeout: 120_000,
    },
    async () => {
      const script = walk();
      expect(script).toContain('operator-token-create');
      const run = spawn('/bin/bash', ['-c', script], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      run.stdout.on('data', (c) => {
        out += c;
      });
      run.stderr.on('data', (c) => {
        err += c;
      });
      const code = await new Promise<number | null>((resolve) => run.on('exit', resolve));
      expect(code, `${out}\n${err}`).toBe(0);
      expect(out).toContain('idempotent-replayed: true');
      expect(out).toContain('"suspended":true');
      expect(out).toContain('signature verified');
      expect(out).toContain('"suspended":false');
      expect(out).toMatch(/"available":true/);
      expect(out).toMatch(/registered until \d{4}-\d{2}-\d{2}/);
      expect(out).toMatch(/\{"id":\d+,"name":"cliente-nuevo\.com","expireAt":\d+\}/);
      expect(out).toMatch(/\{"name":"cliente-nuevo\.es","terminateAt":\d+\}/);
      // What the walk did, as the panel's store has it.
      const renewals = await opened.store
        .selectFrom('billing_event')
        .selectAll()
        .where('action', '=', 'renew')
        .where('domain', '=', 'cliente-nuevo.com')
        .execute();
      expect(renewals).toMatchObject([{ years: 1, actor: expect.stringMatching(/^operator:\d+$/) }]);
      const realm = await opened.store.selectFrom('realm').selectAll().where('name', '=', 'cliente-nuevo.es').executeTakeFirstOrThrow();
      expect([realm.suspended, realm.terminate_at === null]).toEqual([1, false]);
      const delivered = await opened.store
        .selectFrom('webhook_delivery')
        .select(['event', 'status'])
        .where('event', '=', 'service.suspended')
        .execute();
      expect(delivered.map((d) => d.status)).toContain('delivered');
    },
  );
});
