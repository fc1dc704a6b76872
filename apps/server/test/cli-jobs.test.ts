import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../src/outbox/outbox.ts';
import { openStore, type Store } from '../src/store/db.ts';

const CLI = path.resolve(import.meta.dirname, '../src/cli/main.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-cli-jobs-'));

function admin(...args: string[]) {
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args], {
    env: { ...process.env, ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe("the admin CLI's view of the outbox", () => {
  let store: Store;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    store = await openStore({ dataDir });
    for (const name of ['pending', 'running', 'failed', 'done']) ids[name] = await enqueue(store, `test.${name}`, {}, 7);
    await store.updateTable('job').set({ status: 'running', lease_until: 4_000_000_000 }).where('id', '=', ids.running).execute();
    await store
      .updateTable('job')
      .set({ status: 'failed', attempts: 8, last_error: 'backend unreachable:\nconnection refused' })
      .where('id', '=', ids.failed)
      .execute();
    await store.updateTable('job').set({ status: 'done' }).where('id', '=', ids.done).execute();
  });
  afterAll(() => store.destroy());

  it('lists the pending, running and failed jobs with the last error on one line, and not the done ones', () => {
    const jobs = admin('jobs');
    expect(jobs.code).toBe(0);
    expect(jobs.out).toContain(`${ids.pending}\tpending\ttest.pending\t7\t0\tdue `);
    expect(jobs.out).toContain(`${ids.running}\trunning\ttest.running\t7\t0\tlease until 2096-`);
    expect(jobs.out).toContain(`${ids.failed}\tfailed\ttest.failed\t7\t8\tat `);
    expect(jobs.out).toContain('backend unreachable: connection refused\n');
    expect(jobs.out).not.toContain('test.done');
    expect(jobs.out).toContain('1 pending, 1 running, 1 failed');
  }, 60_000);

  it('queues a failed job again with its attempts from zero, and refuses a job that is not failed', async () => {
    const retried = admin('jobs', 'retry', String(ids.failed));
    expect(retried.code).toBe(0);
    expect(retried.out).toContain(`Job ${ids.failed} queued again`);
    expect(await store.selectFrom('job').select(['status', 'attempts']).where('id', '=', ids.failed).executeTakeFirst()).toEqual({
      status: 'pending',
      attempts: 0,
    });
    const refused = admin('jobs', 'retry', String(ids.running));
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`job ${ids.running} is not a failed job`);
    expect(admin('jobs', 'again').err).toContain('usage: jobs, or jobs retry <id>');
  }, 60_000);

  it('copies the live SQLite store with backup into a store that opens with the same jobs, and never over an existing file', async () => {
    const copyDir = mkdtempSync(path.join(tmpdir(), 'atalaya-backup-'));
    const file = path.join(copyDir, 'atalaya.sqlite');
    const done = admin('backup', file);
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/Store copied to .*atalaya\.sqlite \(\d+ pages\)/);
    const copy = await openStore({ dataDir: copyDir });
    expect((await copy.selectFrom('job').select('id').orderBy('id').execute()).map((j) => j.id)).toEqual(
      Object.values(ids).sort((a, b) => a - b),
    );
    await copy.destroy();
    const again = admin('backup', file);
    expect(again.code).toBe(2);
    expect(again.err).toContain('already exists');
  }, 60_000);
});
