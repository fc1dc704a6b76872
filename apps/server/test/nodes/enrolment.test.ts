import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { enrolAgent } from '../../src/agent/agent.ts';
import { dnsSettings } from '../../src/drivers/dns/index.ts';
import { ensureZone } from '../../src/modules/dns/zone.ts';
import { AccountError, createItem, createRealm } from '../../src/modules/provisioning/accounts.ts';
import { insertChild } from '../../src/modules/service/jobs.ts';
import { panelCa } from '../../src/nodes/ca.ts';
import { type NodeListener, startNodeListener } from '../../src/nodes/listener.ts';
import { addNode, drainNode, listNodes } from '../../src/nodes/nodes.ts';
import { now } from '../../src/store/db.ts';
import { createAccount } from '../fixtures.ts';
import { api } from '../service/helpers.ts';
import { describeStores, openTestApp, type TestContext } from '../stores.ts';

/** Enrolment, placement and the panel's own worker, in one process (the agents as processes: agents.test.ts). */
describeStores('hosting nodes: enrolment and placement on %s', (kind) => {
  let ctx: TestContext;
  let listener: NodeListener;
  let panel: string;
  const dirs: string[] = [];
  const realm = `place-${kind}.test`;
  const dir = () => {
    const d = mkdtempSync(path.join(tmpdir(), 'atalaya-enrol-'));
    dirs.push(d);
    return path.join(d, 'state');
  };
  const token = async (name: string, roles: ('web' | 'mail')[] = ['web', 'mail']) =>
    addNode(ctx.store, await panelCa(ctx.store, ctx.app.runtime.secrets), name, roles);
  const nodeRow = (name: string) => ctx.store.selectFrom('node').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

  beforeAll(async () => {
    ctx = await openTestApp(kind);
    listener = await startNodeListener(ctx.app.runtime);
    panel = `https://127.0.0.1:${listener.port}`;
    await createRealm(ctx.store, realm);
  });
  afterAll(async () => {
    await listener.close();
    await ctx.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('places hosting on the panel itself while there are no nodes, and the panel applies its jobs as before', async () => {
    const item = await createItem(ctx.store, { realm, reference: 'alone.test', mail: true });
    const row = await ctx.store.selectFrom('item').select('node_id').where('id', '=', item.id).executeTakeFirstOrThrow();
    expect(row.node_id).toBeNull();
    const { job } = await insertChild(ctx.store, 'mail_account', item.id, {
      item_id: item.id,
      name: 'ana',
      password_secret: ctx.app.runtime.secrets.encrypt('pw'),
      quota: 0,
      job_id: null,
      created_at: now(),
    });
    await ctx.app.runtime.outbox.drain();
    expect((await ctx.store.selectFrom('job').select('status').where('id', '=', job).executeTakeFirstOrThrow()).status).toBe('done');
  });

  it('exchanges a token once for a certificate of the node, and refuses it the second time', async () => {
    const t = await token('once');
    // Hex up to the CA's fingerprint: it never starts with the dash of a command-line option.
    expect(t).toMatch(/^[0-9a-f]{48}\.[A-Za-z0-9_-]+$/);
    expect(await enrolAgent(panel, t, dir())).toBe('once');
    expect(await nodeRow('once')).toMatchObject({ state: 'active', token_hash: null });
    expect((await nodeRow('once')).cert_serial).toMatch(/^[0-9a-f]+$/);
    await expect(enrolAgent(panel, t, dir())).rejects.toThrow(/refused the enrolment/);
  });

  it('refuses an expired token', async () => {
    const t = await token('late');
    await ctx.store
      .updateTable('node')
      .set({ token_expires_at: now() - 1 })
      .where('name', '=', 'late')
      .execute();
    await expect(enrolAgent(panel, t, dir())).rejects.toThrow(/refused the enrolment/);
    expect((await nodeRow('late')).state).toBe('enrolling');
  });

  it('sends nothing to a panel whose CA is not the one the token names', async () => {
    const t = await token('pinned');
    await expect(enrolAgent(panel, `${t.split('.')[0]}.${'A'.repeat(43)}`, dir())).rejects.toThrow(/is not the panel/);
    expect((await nodeRow('pinned')).state).toBe('enrolling');
  });

  it('places a service on the node named, else on the least loaded active node with the role, never a draining one', async () => {
    await enrolAgent(panel, await token('mailonly', ['mail']), dir());
    const nodeOf = async (reference: string, spec: { service?: 'normal'; mail?: boolean; node?: string }) => {
      const item = await createItem(ctx.store, { realm, reference, ...spec });
      const row = await ctx.store.selectFrom('item').select('node_id').where('id', '=', item.id).executeTakeFirstOrThrow();
      return row.node_id === null
        ? null
        : (await ctx.store.selectFrom('node').select('name').where('id', '=', row.node_id).executeTakeFirstOrThrow()).name;
    };
    // "once" hosts nothing yet and is the only active node with the web role.
    expect(await nodeOf('web-a.test', { service: 'normal' })).toBe('once');
    // Mail: "mailonly" hosts nothing, "once" hosts one item.
    expect(await nodeOf('mail-a.test', { mail: true })).toBe('mailonly');
    expect(await nodeOf('mail-b.test', { mail: true, node: 'once' })).toBe('once');
    await expect(nodeOf('web-b.test', { service: 'normal', node: 'mailonly' })).rejects.toThrow(AccountError);
    await drainNode(ctx.store, 'mailonly');
    expect(await nodeOf('mail-c.test', { mail: true })).toBe('once');
    await expect(nodeOf('mail-d.test', { mail: true, node: 'mailonly' })).rejects.toThrow(/draining/);
  });

  it('leaves a node job to its agent: the panel worker never applies it, and the node list counts it as waiting', async () => {
    const item = await createItem(ctx.store, { realm, reference: 'placed.test', mail: true, node: 'once' });
    // The mail services placed on the node so far queued their DKIM keys there too.
    const waitingBefore = Number((await listNodes(ctx.store)).find((n) => n.name === 'once')?.waiting);
    const { job } = await insertChild(ctx.store, 'mail_account', item.id, {
      item_id: item.id,
      name: 'bea',
      password_secret: ctx.app.runtime.secrets.encrypt('pw'),
      quota: 0,
      job_id: null,
      created_at: now(),
    });
    await ctx.app.runtime.outbox.drain();
    expect(await ctx.store.selectFrom('job').select(['status', 'attempts']).where('id', '=', job).executeTakeFirstOrThrow()).toEqual({
      status: 'pending',
      attempts: 0,
    });
    const once = (await listNodes(ctx.store)).find((n) => n.name === 'once');
    expect(once).toMatchObject({ roles: 'web,mail', state: 'active' });
    expect(Number(once?.waiting)).toBe(waitingBefore + 1);
  });

  it('applies the DNS zone of an item placed on a node on the panel, while the node job queued before it waits for the agent', async () => {
    const item = await createItem(ctx.store, { realm, reference: 'zone-placed.test', service: 'normal', node: 'once' });
    const { job: nodeJob } = await insertChild(ctx.store, 'mail_account', item.id, {
      item_id: item.id,
      name: 'cai',
      password_secret: ctx.app.runtime.secrets.encrypt('pw'),
      quota: 0,
      job_id: null,
      created_at: now(),
    });
    await ensureZone(ctx.store, { settings: dnsSettings(ctx.app.runtime.config) }, item.id, 'zone-placed.test');
    const zoneJob = await ctx.store
      .selectFrom('job')
      .select(['id', 'node_id'])
      .where('item_id', '=', item.id)
      .where('kind', '=', 'dns.apply-zone')
      .executeTakeFirstOrThrow();
    expect(zoneJob.node_id).toBeNull();
    expect(zoneJob.id).toBeGreaterThan(nodeJob);
    await ctx.app.runtime.outbox.drain();
    const status = async (id: number) =>
      (await ctx.store.selectFrom('job').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
    expect(await status(zoneJob.id)).toBe('done');
    expect(await status(nodeJob)).toBe('pending');
  });

  it('fills the zone of a service on a node with the node address, when the zone is made and again when the customer restores its defaults', async () => {
    const ca = await panelCa(ctx.store, ctx.app.runtime.secrets);
    await enrolAgent(panel, await addNode(ctx.store, ca, 'addressed', ['web', 'mail'], 'addressed', '192.0.2.50'), dir());
    const account = await createAccount(ctx.store, {
      users: { owner: 'all=write' },
      items: [{ reference: 'placed-zone.test', service: 'normal', node: 'addressed' }],
    });
    const id = account.items['placed-zone.test'];
    const apex = async () =>
      (
        await ctx.store
          .selectFrom('dns_record')
          .select('value')
          .where('item_id', '=', id)
          .where('zona', '=', '')
          .where('type', '=', 'A')
          .execute()
      ).map((r) => r.value);
    await ensureZone(ctx.store, { settings: dnsSettings(ctx.app.runtime.config) }, id, 'placed-zone.test');
    expect(await apex()).toEqual(['192.0.2.50']);
    await ctx.store.updateTable('dns_record').set({ value: '198.51.100.7' }).where('item_id', '=', id).where('type', '=', 'A').execute();
    const restored = await api(ctx, account, 'owner', `/service/${id}/dns/restore/`);
    expect(restored.status).toBe(200);
    expect(await apex()).toEqual(['192.0.2.50']);
  });

  it('answers the error log of a service whose node agent is not connected with the server unreachable message, not a failure', async () => {
    const account = await createAccount(ctx.store, {
      users: { owner: 'all=write' },
      items: [{ reference: 'log-away.test', service: 'normal', node: 'once' }],
    });
    const answer = await api(ctx, account, 'owner', `/service/${account.items['log-away.test']}/logerror/`);
    expect(answer.status).toBe(503);
    expect(answer.body.system.errors).toEqual(['El servidor de este servicio no responde ahora mismo. Inténtalo de nuevo en unos minutos']);
  });
});
