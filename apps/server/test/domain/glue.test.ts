import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DomainTest, describeRegistries, fieldErrors, openDomainTest } from './helpers.ts';

describeRegistries('glue records on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());
  const base = () => `/domain/${t.id('y.com')}/gluerecord`;
  const list = async () => (await t.get(`${base()}/list/`)).body.data.gluerecords;
  /** Creates a glue record (its change applied) and answers its id, which the list gives. */
  const create = async (fields: { name: string; ip: string }) => {
    await t.post(`${base()}/create/`, fields);
    return (await list()).find((g: { name: string }) => g.name === fields.name).id as number;
  };

  it('creates, lists, saves and deletes a glue record', async () => {
    const created = await t.post(`${base()}/create/?language=en`, { name: 'NS1.y.com', ip: '192.0.2.10', ipv6: '2001:DB8::10' });
    expect(created.status).toBe(200);
    expect(created.body.system.info).toEqual(['Glue record created']);
    expect(created.body.data.change).toEqual(expect.any(Number));
    const [record] = await list();
    const id = record.id;
    expect(await list()).toEqual([{ id, name: 'ns1.y.com', ip: '192.0.2.10', ipv6: '2001:db8::10' }]);
    expect((await t.post(`${base()}/${id}/save/`, { ip: '198.51.100.10', ipv6: '' })).status).toBe(200);
    expect(await list()).toEqual([{ id, name: 'ns1.y.com', ip: '198.51.100.10', ipv6: '' }]);
    expect((await t.get(`${base()}/list/`, 'r')).status).toBe(200);
    const deleted = await t.get(`${base()}/${id}/delete/`);
    expect(deleted.status).toBe(200);
    expect(await list()).toEqual([]);
  });

  // The test registry takes a host named as the domain itself for an external host (one under
  // another registry), which must not carry an address: decision 032 notes the difference.
  it.skipIf(registry === 'epp')('accepts the domain itself as the name and no IPv6', async () => {
    expect((await t.post(`${base()}/create/`, { name: 'y.com', ip: '192.0.2.1' })).status).toBe(200);
  });

  it.each([
    [{ name: 'ns1.other.com', ip: '192.0.2.1' }, { name: 'The name must be the domain or a subdomain of it' }],
    [{ name: 'ns1.xy.com', ip: '192.0.2.1' }, { name: 'The name must be the domain or a subdomain of it' }],
    [{ name: 'ns 1.y.com', ip: '192.0.2.1' }, { name: 'Invalid host name' }],
    [{ name: '', ip: '192.0.2.1' }, { name: 'Required field' }],
    [{ name: 'ns2.y.com', ip: '' }, { ip: 'Required field' }],
    [{ name: 'ns2.y.com', ip: '256.1.1.1' }, { ip: 'Invalid IP' }],
    [{ name: 'ns2.y.com', ip: '192.0.2' }, { ip: 'Invalid IP' }],
    [{ name: 'ns2.y.com', ip: '2001:db8::1' }, { ip: 'Invalid IP' }],
    [{ name: 'ns2.y.com', ip: '192.0.2.1', ipv6: '2001:db8::g' }, { ipv6: 'Invalid IPv6' }],
    [{ name: 'ns2.y.com', ip: '192.0.2.1', ipv6: '192.0.2.1' }, { ipv6: 'Invalid IPv6' }],
    [
      { name: 'ns_1.y.com', ip: '1.2.3', ipv6: 'zz::1' },
      { name: 'Invalid host name', ip: 'Invalid IP', ipv6: 'Invalid IPv6' },
    ],
  ])('refuses %j', async (fields, errors) => {
    const res = await t.post(`${base()}/create/?language=en`, fields);
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual(errors);
  });

  it('refuses a duplicate name', async () => {
    await t.post(`${base()}/create/`, { name: 'ns5.y.com', ip: '192.0.2.5' });
    const res = await t.post(`${base()}/create/?language=en`, { name: 'ns5.y.com', ip: '192.0.2.6' });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ name: 'Already exists' });
  });

  it('refuses bad addresses on save, and unknown or foreign record ids', async () => {
    const id = await create({ name: 'ns6.y.com', ip: '192.0.2.6' });
    expect(fieldErrors((await t.post(`${base()}/${id}/save/?language=en`, { ip: '1.2.3.999' })).body)).toEqual({ ip: 'Invalid IP' });
    expect((await t.post(`${base()}/999999/save/`, { ip: '192.0.2.7' })).status).toBe(404);
    expect((await t.post(`/domain/${t.id('z.eu')}/gluerecord/${id}/save/`, { ip: '192.0.2.7' })).status).toBe(404);
    expect((await t.get(`/domain/${t.id('z.eu')}/gluerecord/${id}/delete/`)).status).toBe(404);
    expect((await t.get(`${base()}/x/delete/`)).status).toBe(404);
  });

  it('refuses to delete a glue record the domain delegates to', async () => {
    const id = await create({ name: 'ns7.y.com', ip: '192.0.2.7' });
    await t.post(`/domain/${t.id('y.com')}/dnsedit/`, { 'default-ns': '0', dns: ['ns7.y.com', 'ns.example.org'] });
    const res = await t.get(`${base()}/${id}/delete/?language=en`);
    expect(res.status).toBe(409);
    expect(res.body.system.errors[0]).toMatch(/in use/);
  });

  it('refuses read-only users, other realms, blocked domains and missing sessions', async () => {
    const id = await create({ name: 'ns8.y.com', ip: '192.0.2.8' });
    expect((await t.post(`${base()}/create/`, { name: 'ns9.y.com', ip: '192.0.2.9' }, 'r')).status).toBe(403);
    expect((await t.post(`${base()}/${id}/save/`, { ip: '192.0.2.9' }, 'r')).status).toBe(403);
    expect((await t.get(`${base()}/${id}/delete/`, 'r')).status).toBe(403);
    expect((await t.get(`${base()}/list/`, 'd')).status).toBe(404);
    expect((await t.get(`/domain/${t.id('other.com')}/gluerecord/list/`)).status).toBe(404);
    expect((await t.post(`/domain/${t.id('other.com')}/gluerecord/create/`, { name: 'ns1.other.com', ip: '192.0.2.1' })).status).toBe(404);
    expect((await t.get(`${base()}/list/`, null)).body.system.statusCode).toBe(101);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await t.post(`${base()}/create/`, { name: 'ns9.y.com', ip: '192.0.2.9' })).status).toBe(409);
    expect((await t.post(`${base()}/${id}/save/`, { ip: '192.0.2.9' })).status).toBe(409);
    expect((await t.get(`${base()}/${id}/delete/`)).status).toBe(409);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await list()).find((g: { id: number }) => g.id === id).ip).toBe('192.0.2.8');
  });
});
