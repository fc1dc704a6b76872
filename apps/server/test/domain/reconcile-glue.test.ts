import { afterEach, beforeEach, expect, it } from 'vitest';
import { reconcileRegistry } from '../../src/modules/domain/reconcile.ts';
import { type DomainTest, describeRegistries, openDomainTest } from './helpers.ts';

/** `npm run admin -- reconcile` compares the glue records the customer set with the registry's subordinate hosts. */
describeRegistries('reconcile of glue records on %s', (kind, registry) => {
  let t: DomainTest;
  let id: number;
  beforeEach(async () => {
    t = await openDomainTest(kind, registry);
    id = t.id('y.com');
    await t.get(`/domain/${id}/`); // the screen's first read (openDomainTest registered it, decision 051)
  });
  afterEach(() => t.close());
  const base = () => `/domain/${id}/gluerecord`;
  const hosts = async () =>
    Object.fromEntries(
      ((await t.get(`${base()}/list/`)).body.data.gluerecords as { id: number; name: string; ip: string; ipv6: string }[]).map((h) => [
        h.name,
        { id: h.id, ip: h.ip, ipv6: h.ipv6 },
      ]),
    );
  const reconcile = (repair: boolean) => reconcileRegistry(t.ctx.store, t.ctx.app.runtime.drivers.registry, repair);
  const glueDifferences = async (repair = false) =>
    (await reconcile(repair)).filter((d) => d.subject.includes('glue')).map((d) => `${d.subject}${d.outcome ? ` ${d.outcome}` : ''}`);

  /** Changes behind the panel's back: at the test registry over EPP, in the local registry's own table otherwise. */
  async function setAddress(name: string, ipv4: string) {
    if (registry === 'epp') {
      t.registry!.state.data.hosts[name].addrs = [{ ip: 'v4', addr: ipv4 }];
      await t.ctx.store.updateTable('domain').set({ updated_at: 1 }).where('item_id', '=', id).execute();
    } else await t.ctx.store.updateTable('domain_host').set({ ipv4 }).where('name', '=', name).execute();
  }
  async function removeHost(name: string) {
    if (registry === 'epp') {
      delete t.registry!.state.data.hosts[name];
      await t.ctx.store.updateTable('domain').set({ updated_at: 1 }).where('item_id', '=', id).execute();
    } else await t.ctx.store.deleteFrom('domain_host').where('name', '=', name).execute();
  }

  it('finds none while the registry holds the glue the customer set', async () => {
    await t.post(`${base()}/create/`, { name: 'ns1.y.com', ip: '192.0.2.1' });
    expect(await glueDifferences()).toEqual([]);
  });

  it('prints a glue record whose address was changed at the registry, and --repair sets the panel one back', async () => {
    await t.post(`${base()}/create/`, { name: 'ns1.y.com', ip: '192.0.2.1' });
    const { id: hostId } = (await hosts())['ns1.y.com'];
    await t.post(`${base()}/${hostId}/save/`, { ip: '192.0.2.9' });
    expect(await glueDifferences()).toEqual([]);
    await setAddress('ns1.y.com', '198.51.100.7');
    expect(await glueDifferences()).toEqual(['y.com glue ns1.y.com']);
    expect(await glueDifferences(true)).toEqual(['y.com glue ns1.y.com repaired']);
    await t.drain();
    expect((await hosts())['ns1.y.com'].ip).toBe('192.0.2.9');
    expect(await glueDifferences()).toEqual([]);
  });

  it('prints a glue record missing at the registry, and --repair creates it again', async () => {
    await t.post(`${base()}/create/`, { name: 'ns2.y.com', ip: '192.0.2.2', ipv6: '2001:db8::2' });
    await removeHost('ns2.y.com');
    expect(await glueDifferences()).toEqual(['y.com glue ns2.y.com missing']);
    await glueDifferences(true);
    await t.drain();
    expect((await hosts())['ns2.y.com']).toMatchObject({ ip: '192.0.2.2', ipv6: '2001:db8::2' });
  });

  it('prints a glue record the customer deleted that the registry still holds, and --repair deletes it', async () => {
    await t.post(`${base()}/create/`, { name: 'ns3.y.com', ip: '192.0.2.3' });
    const { id: hostId } = (await hosts())['ns3.y.com'];
    await t.get(`${base()}/${hostId}/delete/`);
    expect(await hosts()).toEqual({});
    // Back at the registry behind the panel's back (a registry restored from a backup): made here
    // through the panel, then its change forgotten, so the customer's last word is the deletion.
    await t.post(`${base()}/create/`, { name: 'ns3.y.com', ip: '192.0.2.3' });
    const last = await t.ctx.store.selectFrom('registry_change').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    await t.ctx.store.deleteFrom('registry_change').where('id', '=', last.id).execute();
    expect(await glueDifferences()).toEqual(['y.com glue ns3.y.com extra']);
    await glueDifferences(true);
    await t.drain();
    expect(await hosts()).toEqual({});
  });
});
