import { afterEach, beforeEach, expect, it } from 'vitest';
import { listRegistryMessages } from '../../src/modules/domain/messages.ts';
import { POLL_LEASE_SECONDS, pollRegistry, takePollLease } from '../../src/modules/domain/poll.ts';
import { reconcileRegistry } from '../../src/modules/domain/reconcile.ts';
import { now } from '../../src/store/db.ts';
import { CLIENT_ID } from '../registry-epp/harness.ts';
import { describeStores } from '../stores.ts';
import { type DomainTest, openDomainTest, type RegistryKind } from './helpers.ts';

const SERVERS = ['ns1.elsewhere.example', 'ns2.elsewhere.example'];

/** The registry changes of a domain go through the outbox: pending until applied, failed with the registry's reason. */
for (const registry of ['local', 'epp'] as RegistryKind[]) {
  describeStores(`registry changes through the outbox on %s (${registry} registry)`, (kind) => {
    let t: DomainTest;
    beforeEach(async () => {
      t = await openDomainTest(kind, registry);
    });
    afterEach(() => t.close());
    const domain = async () => (await t.get(`/domain/${t.id('y.com')}/?language=en`)).body.data;

    it('shows a name-server change as pending until the outbox applies it, then the registry has it', async () => {
      const before = await domain();
      const saved = await t.postQueued(`/domain/${t.id('y.com')}/dnsedit/`, { 'default-ns': '0', dns: SERVERS });
      expect(saved.status).toBe(200);
      const queued = (await t.getQueued(`/domain/${t.id('y.com')}/`)).body.data;
      expect(queued.changes).toEqual([{ id: expect.any(Number), action: 'nameServers', state: 'pending', message: '', job: null }]);
      expect(queued.domain.dns.servers).toEqual(before.domain.dns.servers);
      await t.drain();
      const after = await domain();
      expect(after.changes).toEqual([]);
      expect(after.domain.dns.servers).toEqual(SERVERS);
      if (registry === 'epp') expect(t.registry!.state.data.domains['y.com'].hostObjs).toEqual(SERVERS);
    });

    it('keeps the change in the activity log, with the registry transaction ids over EPP', async () => {
      await domain();
      await t.post(`/domain/${t.id('y.com')}/dnsedit/`, { 'default-ns': '0', dns: SERVERS });
      const line = await t.ctx.store
        .selectFrom('audit_event')
        .select(['outcome', 'detail'])
        .where('action', '=', 'registry.nameServers')
        .executeTakeFirstOrThrow();
      expect(line.outcome).toBe('success');
      const detail = JSON.parse(line.detail);
      if (registry === 'epp') {
        expect(detail.clTRID).toMatch(/^ATL-/);
        expect(detail.svTRID).not.toBe('');
      } else expect(detail.clTRID).toBe('');
    });
  });
}

describeStores('registry changes when the EPP registry misbehaves (%s)', (kind) => {
  let t: DomainTest;
  let id: number;
  beforeEach(async () => {
    t = await openDomainTest(kind, 'epp');
    id = t.id('y.com');
    await t.get(`/domain/${id}/`); // the screen's first read (openDomainTest registered it, decision 051)
  });
  afterEach(() => t.close());
  const registered = () => t.registry!.state.data.domains['y.com'];
  const domain = async () => (await t.get(`/domain/${id}/?language=en`)).body.data;
  const saveServers = (servers = SERVERS) => t.postQueued(`/domain/${id}/dnsedit/`, { 'default-ns': '0', dns: servers });
  const changes = () => t.ctx.store.selectFrom('registry_change').selectAll().orderBy('id').execute();

  it('applies a change whose answer was lost with the connection exactly once', async () => {
    t.registry!.setFaults({ drop: { when: 'mid-response', commands: ['domain:update'] } });
    await saveServers();
    await t.drain();
    expect(registered().hostObjs).toEqual(SERVERS);
    const [change] = await changes();
    expect(change.state).toBe('done');
    expect((await domain()).domain.dns.servers).toEqual(SERVERS);
  });

  it('logs in again after a 2502 and completes the change', async () => {
    t.registry!.setFaults({ answer: { code: 2502, commands: ['domain:update'] } });
    await saveServers();
    await t.drain();
    // The outbox retries after its back-off; the next attempt finds a new session.
    for (let i = 0; i < 20 && (await changes())[0].state === 'queued'; i++) {
      await new Promise((r) => setTimeout(r, 250));
      await t.drain();
    }
    expect((await changes())[0].state).toBe('done');
    expect(registered().hostObjs).toEqual(SERVERS);
  });

  it('queues commands under the registry rate limit and fails none', async () => {
    t.registry!.setFaults({ rateLimit: { commands: 4, perMs: 400, mode: 'queue' } });
    for (let n = 0; n < 4; n++) await saveServers([`ns1.n${n}.example`, `ns2.n${n}.example`]);
    await t.drain();
    expect((await changes()).map((c) => c.state)).toEqual(['done', 'done', 'done', 'done']);
    expect(registered().hostObjs).toEqual(['ns1.n3.example', 'ns2.n3.example']);
  });

  it('shows a 2304 as failed with the registry reason and leaves the panel equal to the registry', async () => {
    const servers = registered().hostObjs;
    t.registry!.serverStatus('domain', 'y.com', ['serverUpdateProhibited']);
    await saveServers();
    await t.drain();
    const answer = await domain();
    expect(answer.changes).toEqual([
      {
        id: expect.any(Number),
        action: 'nameServers',
        state: 'failed',
        message: expect.stringMatching(/^The registry does not allow this change.*: .+/),
        job: null,
      },
    ]);
    expect(answer.domain.dns.servers).toEqual(servers);
    expect(registered().hostObjs).toEqual(servers);
    const [change] = await changes();
    expect(change.result).toBe(2304);
  });

  it('shows a 1001 as pending until the poll queue completes it', async () => {
    t.registry!.setFaults({ pending: ['domain:update'] });
    await saveServers();
    await t.drain();
    expect((await domain()).changes).toMatchObject([{ action: 'nameServers', state: 'pending' }]);
    expect((await changes())[0].state).toBe('awaiting');
    t.registry!.completePending(true);
    expect(await t.ctx.app.runtime.scheduler.runNow('registry-poll')).toBe(true);
    const answer = await domain();
    expect(answer.changes).toEqual([]);
    expect(answer.domain.dns.servers).toEqual(SERVERS);
    expect((await changes())[0].state).toBe('done');
  });

  it('marks a pending change the registry refuses later as failed, with its words', async () => {
    t.registry!.setFaults({ pending: ['domain:update'] });
    await saveServers();
    await t.drain();
    t.registry!.completePending(false);
    await t.ctx.app.runtime.scheduler.runNow('registry-poll');
    expect((await domain()).changes).toMatchObject([{ state: 'failed', message: expect.stringMatching(/rejected by the registry/) }]);
  });

  it('shows the statuses the registry set once the poll reads its notice (serverHold, serverTransferProhibited)', async () => {
    expect((await domain()).domain.serverStatuses).toEqual([]);
    t.registry!.serverStatus('domain', 'y.com', ['serverHold', 'serverTransferProhibited'], [], true);
    expect(await t.ctx.app.runtime.scheduler.runNow('registry-poll')).toBe(true);
    expect((await domain()).domain.serverStatuses).toEqual(['serverHold', 'serverTransferProhibited']);
    expect(t.registry!.state.data.messages).toEqual([]);
    const logged = await t.ctx.store
      .selectFrom('audit_event')
      .select(['item_id', 'detail'])
      .where('action', '=', 'registry.message')
      .execute();
    expect(logged).toMatchObject([{ item_id: id }]);
    expect(JSON.parse(logged[0].detail)).toMatchObject({ kind: 'status', statuses: 'serverHold serverTransferProhibited' });
    // Lifted by the registry: gone from the panel after the next poll.
    t.registry!.serverStatus('domain', 'y.com', [], ['serverHold'], true);
    await t.ctx.app.runtime.scheduler.runNow('registry-poll');
    expect((await domain()).domain.serverStatuses).toEqual(['serverTransferProhibited']);
  });

  it('reads the queue in one process at a time: a run finds the lease taken and leaves the queue, and a run gives its lease back', async () => {
    t.registry!.queueMessage(CLIENT_ID, 'Scheduled maintenance on Sunday');
    const at = now();
    expect(await t.ctx.store.transaction().execute((trx) => takePollLease(trx, at))).toBe(at + POLL_LEASE_SECONDS);
    expect(await t.ctx.store.transaction().execute((trx) => takePollLease(trx, at + 1))).toBeNull();
    await t.ctx.app.runtime.scheduler.runNow('registry-poll');
    expect(t.registry!.state.data.messages).toHaveLength(1);
    // The lease ended (a process that crashed holding it): the next run takes it, reads, and gives it back.
    await t.ctx.store
      .updateTable('counter')
      .set({ reset_at: at - 1 })
      .where('key', '=', 'registry-poll')
      .execute();
    await t.ctx.app.runtime.scheduler.runNow('registry-poll');
    expect(t.registry!.state.data.messages).toEqual([]);
    expect(await t.ctx.store.selectFrom('counter').select('key').where('key', '=', 'registry-poll').execute()).toEqual([]);
  });

  it('keeps a poll message it cannot read for the operator, acknowledges it and records it', async () => {
    t.registry!.queueMessage(CLIENT_ID, 'Scheduled maintenance on Sunday');
    const read = await pollRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry);
    expect(read).toBe(1);
    expect(t.registry!.state.data.messages).toEqual([]);
    // What `npm run admin -- registry-messages` prints.
    const kept = await listRegistryMessages(t.ctx.store);
    expect(kept).toMatchObject([{ text: 'Scheduled maintenance on Sunday' }]);
    expect(kept[0].xml).toContain('<msgQ');
    const logged = await t.ctx.store.selectFrom('audit_event').select('detail').where('action', '=', 'registry.message').execute();
    expect(logged.map((l) => JSON.parse(l.detail).text)).toEqual(['Scheduled maintenance on Sunday']);
  });

  it('reconciles: prints the differences made at the registry, and --repair brings the registry back to the panel', async () => {
    await t.post(`/domain/${id}/dnsedit/`, { 'default-ns': '0', dns: SERVERS });
    await t.get(`/domain/${id}/toggle/transferblock/`);
    // The registry set the expiry when it registered the domain (the panel's may be a second off): the panel takes it.
    const first = await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, true);
    expect(first.filter((d) => d.subject !== 'y.com expiry')).toEqual([]);
    expect(await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, false)).toEqual([]);
    // Made at the registry behind the panel's back: another name server, the lock lifted, a renewal.
    registered().hostObjs = ['ns.other.example'];
    registered().statuses = registered().statuses.filter((s: { s: string }) => s.s !== 'clientTransferProhibited');
    registered().exDate = '2031-01-01T00:00:00.000Z';
    await t.ctx.store.updateTable('domain').set({ updated_at: 1 }).where('item_id', '=', id).execute();
    const found = await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, false);
    expect(found.map((d) => d.subject).sort()).toEqual([
      'y.com expiry (renewal not billed)',
      'y.com name servers',
      'y.com status clientTransferProhibited',
    ]);
    const repaired = await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, true);
    expect(repaired.every((d) => d.outcome === 'repaired')).toBe(true);
    await t.drain();
    expect(registered().hostObjs).toEqual(SERVERS);
    expect(registered().statuses.map((s: { s: string }) => s.s)).toContain('clientTransferProhibited');
    const row = await t.ctx.store.selectFrom('domain').select('expire_at').where('item_id', '=', id).executeTakeFirstOrThrow();
    expect(row.expire_at).toBe(Date.parse('2031-01-01T00:00:00.000Z') / 1000);
    expect(await reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, false)).toEqual([]);
  });
});
