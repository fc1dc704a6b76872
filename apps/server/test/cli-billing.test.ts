import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordBilling } from '../src/modules/domain/billing.ts';
import { openStore, type Store } from '../src/store/db.ts';

const CLI = path.resolve(import.meta.dirname, '../src/cli/main.ts');
const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-cli-billing-'));

function admin(...args: string[]) {
  const result = spawnSync(process.execPath, ['--disable-warning=ExperimentalWarning', CLI, ...args], {
    env: { ...process.env, ATALAYA_DATA_DIR: dataDir, DATABASE_URL: '' },
    encoding: 'utf8',
  });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

describe('admin billing-events', () => {
  let store: Store;
  const event = { itemId: 7, domain: 'ledger.es', years: 2, expireAt: 1_893_456_000, actor: 'user:3' } as const;
  beforeAll(async () => {
    store = await openStore({ dataDir });
    expect(await recordBilling(store, { ...event, action: 'renew', fromDate: '2027-01-01' })).toBe(true);
    // The same renewal again (a retry) is not a second event.
    expect(await recordBilling(store, { ...event, action: 'renew', fromDate: '2027-01-01' })).toBe(false);
    expect(await recordBilling(store, { ...event, action: 'restore', fromDate: '2027-01-01', years: 1 })).toBe(true);
    await store.updateTable('billing_event').set({ created_at: 1_700_000_000 }).where('action', '=', 'restore').execute();
  });
  afterAll(() => store.destroy());

  it('prints each billable action once as a JSON line, from a day on, and refuses a date it cannot read', { timeout: 60_000 }, () => {
    const all = admin('billing-events');
    expect(all.code).toBe(0);
    const lines = all.out
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toMatchObject([
      { action: 'restore', domain: 'ledger.es', years: 1, at: '2023-11-14T22:13:20.000Z' },
      { action: 'renew', domain: 'ledger.es', years: 2, fromDate: '2027-01-01', expireAt: '2030-01-01', actor: 'user:3' },
    ]);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      admin('billing-events', '--since', today)
        .out.trim()
        .split('\n')
        .map((line) => JSON.parse(line).action),
    ).toEqual(['renew']);
    const bad = admin('billing-events', '--since', 'yesterday');
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--since must be a date as YYYY-MM-DD');
  });
});
