import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { DatabaseView, ServiceView } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { queueDueUsage, USAGE_JOB } from '../../src/modules/service/usage.ts';
import type { Account } from '../fixtures.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';
import { api, jobStatus, serviceAccount } from './helpers.ts';

describeStores('measured usage on %s', (kind) => {
  let ctx: TestContext;
  let acc: Account;
  let id: number;
  const service = async () => (await api<{ service: ServiceView }>(ctx, acc, 'admin', `/service/${id}/`)).body.data.service;
  /** The local drivers' web root of the service: `<dataDir>/www/<reference>/`. */
  const webFile = (name: string, bytes: number) => {
    const dir = path.join(ctx.config.dataDir, 'www', 'tienda.test', 'public');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, name), Buffer.alloc(bytes, 'a'));
  };
  const refresh = async (user = 'admin') => {
    const answer = await api(ctx, acc, user, `/service/${id}/usage/refresh/`, {});
    await ctx.app.runtime.outbox.drain();
    return answer;
  };

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    acc = await serviceAccount(ctx);
    id = acc.items['tienda.test'];
  });
  afterAll(() => ctx.close());

  it('shows no measurement on a new service, then the web space its files take once measured, with the time', async () => {
    const before = await service();
    expect(before.usageMeasuredTS).toBeNull();
    expect(before.usage.spaceWeb.used).toBe(0);
    webFile('index.html', 3000);
    const start = Math.floor(Date.now() / 1000);
    const answer = await refresh();
    expect(answer.status).toBe(200);
    expect(await jobStatus(ctx, answer.body.system.job)).toBe('done');
    const after = await service();
    expect(after.usage.spaceWeb.used).toBe(3000);
    expect(after.usageMeasuredTS).toBeGreaterThanOrEqual(start);
  });

  it('follows the files as they grow, and counts no link out of the web root', async () => {
    webFile('big.bin', 200_000);
    const { symlinkSync } = await import('node:fs');
    symlinkSync('/usr', path.join(ctx.config.dataDir, 'www', 'tienda.test', 'public', 'escape'));
    await refresh();
    expect((await service()).usage.spaceWeb.used).toBe(203_000);
  });

  it('gives every database its size and the service their sum (nothing for the local driver, which keeps no tables)', async () => {
    await api<{ ddbb: DatabaseView }>(ctx, acc, 'admin', `/service/${id}/ddbb/create/`, { password: 'Pa$$w0rd-inicial' });
    await refresh();
    const list = (await api<{ ddbb: DatabaseView[] }>(ctx, acc, 'admin', `/service/${id}/ddbb/list/`)).body.data.ddbb;
    expect(list.map((d) => d.usage)).toEqual([0]);
    expect((await service()).usage.spaceBbdd.used).toBe(0);
  });

  it('lets a reader measure on demand, and answers 404 to whoever may not see the service', async () => {
    expect((await refresh('reader')).status).toBe(200);
    expect((await refresh('nothing')).status).toBe(404);
    expect((await api(ctx, acc, 'admin', `/service/${acc.items['otra.test']}/usage/refresh/`, {})).status).toBe(200);
    await ctx.app.runtime.outbox.drain();
  });

  it('the schedule queues each service whose figures are stale or missing, once', async () => {
    const queueDue = (minutes: number) => ctx.store.transaction().execute((trx) => queueDueUsage(trx, minutes));
    const queued = await ctx.store.selectFrom('job').select('item_id').where('kind', '=', USAGE_JOB).where('status', '=', 'pending');
    expect(await queued.execute()).toEqual([]);
    // tienda.test and otra.test were just measured; the parking service never was.
    expect(await queueDue(60)).toBe(1);
    expect((await queued.execute()).map((j) => j.item_id)).toEqual([acc.items['aparcado.test']]);
    expect(await queueDue(60)).toBe(0);
    await ctx.app.runtime.outbox.drain();
    // With a zero-minute window, every service is due again.
    expect(await queueDue(-1)).toBeGreaterThanOrEqual(3);
  });
});
