import { afterEach, beforeEach, expect, it } from 'vitest';
import { failForGood, statusOf } from '../failing.ts';
import { send } from '../fixtures.ts';
import { type DomainTest, describeRegistries, openDomainTest } from './helpers.ts';

const SERVERS = ['ns1.retry.example', 'ns2.retry.example'];

/** A registry change the outbox gave up on (the registry never answered) is retried from the domain screen, like a service row's. */
describeRegistries("a user's retry of a registry change that failed for good on %s", (kind, registry) => {
  let t: DomainTest;
  let id: number;
  beforeEach(async () => {
    t = await openDomainTest(kind, registry);
    id = t.id('y.com');
    await t.get(`/domain/${id}/`); // the screen's first read (openDomainTest registered it, decision 051)
  });
  afterEach(() => t.close());
  const domain = async (user = 'w') => (await t.get(`/domain/${id}/?language=en`, user)).body.data;
  const retry = (job: number, user = 'w', item = id) => t.post(`/service/${item}/job/${job}/retry/`, {}, user);
  /** A name-server change whose job the outbox gives up on, as a registry that stays unreachable makes it. */
  async function failedChange() {
    await t.postQueued(`/domain/${id}/dnsedit/`, { 'default-ns': '0', dns: SERVERS });
    const { job_id } = await t.ctx.store.selectFrom('registry_change').select('job_id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const outcome = await failForGood(t.ctx, job_id!, t.ctx.app.runtime.drivers.registry, ['setNameServers'], 'connect ECONNREFUSED');
    expect(outcome).toEqual({ status: 'failed', last_error: 'connect ECONNREFUSED' });
    return job_id!;
  }

  it('shows the change failed with its job to a writer, who retries it until the registry holds the servers', async () => {
    const before = (await domain()).domain.dns.servers;
    const job = await failedChange();
    const failed = await domain();
    expect(failed.changes).toEqual([
      { id: expect.any(Number), action: 'nameServers', state: 'failed', message: expect.stringMatching(/registry/i), job },
    ]);
    expect(failed.domain.dns.servers).toEqual(before);

    const retried = await t.postQueued(`/service/${id}/job/${job}/retry/`, {});
    expect(retried.status).toBe(200);
    expect(retried.body.system).toMatchObject({ job, info: ['Se volverá a aplicar el cambio'] });
    expect((await t.getQueued(`/domain/${id}/?language=en`)).body.data.changes).toMatchObject([{ state: 'pending', job: null }]);
    await t.drain();
    const after = await domain();
    expect(after.changes).toEqual([]);
    expect(after.domain.dns.servers).toEqual(SERVERS);
    if (registry === 'epp') expect(t.registry!.state.data.domains['y.com'].hostObjs).toEqual(SERVERS);
    expect(await statusOf(t.ctx, job)).toBe('done');
  });

  it('refuses to retry a change that has not failed (409)', async () => {
    await t.post(`/domain/${id}/dnsedit/`, { 'default-ns': '0', dns: SERVERS });
    const { job_id } = await t.ctx.store.selectFrom('registry_change').select('job_id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const again = await retry(job_id!);
    expect(again.status).toBe(409);
    expect(again.body.system.errors).toEqual(['Ese cambio no ha fallado: no hay nada que reintentar']);
  });

  it('offers no retry to readers and refuses theirs (403), and refuses it under another item (404) or realm (404)', async () => {
    const job = await failedChange();
    expect((await domain('r')).changes).toMatchObject([{ state: 'failed', job: null }]);
    expect((await domain('d')).changes).toMatchObject([{ state: 'failed', job: null }]);
    expect((await retry(job, 'r')).status).toBe(403);
    // Writing the domain's other areas is not enough: the change is the name servers'.
    expect((await domain('n')).changes).toMatchObject([{ state: 'failed', job: null }]);
    expect((await retry(job, 'n')).status).toBe(403);
    expect((await retry(job, 'w', t.id('z.eu'))).status).toBe(404);
    const stranger = await send(t.ctx.app, 'POST', `/service/${t.id('other.com')}/job/${job}/retry/`, await t.other.as('o'), {});
    expect(stranger.status).toBe(404);
    expect(await statusOf(t.ctx, job)).toBe('failed');
  });

  // The test registry sets a server status the panel cannot lift; the local registry has none.
  it.runIf(registry === 'epp')('offers no retry for a change the registry refused (2304): it is asked anew', async () => {
    t.registry!.serverStatus('domain', 'y.com', ['serverUpdateProhibited']);
    await t.post(`/domain/${id}/dnsedit/`, { 'default-ns': '0', dns: SERVERS });
    expect((await domain()).changes).toMatchObject([{ action: 'nameServers', state: 'failed', job: null }]);
    const { job_id } = await t.ctx.store.selectFrom('registry_change').select('job_id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect((await retry(job_id!)).status).toBe(409);
  });
});
