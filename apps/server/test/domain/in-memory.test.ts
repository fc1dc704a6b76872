import { afterAll, beforeAll, expect, it } from 'vitest';
import { statementsOn } from '../statements.ts';
import { describeStores } from '../stores.ts';
import { type DomainTest, openDomainTest } from './helpers.ts';

describeStores('the domain read kept in memory on %s', (kind) => {
  let t: DomainTest;
  let id: number;
  beforeAll(async () => {
    t = await openDomainTest(kind);
    id = t.id('x.es');
    // Every user's session exists, and the domain is registered, before any case counts or compares.
    for (const user of ['w', 'd']) expect((await t.get(`/domain/${id}/`, user)).status).toBe(200);
  });
  afterAll(() => t.close());

  const version = async () => Number((await t.ctx.store.selectFrom('auth_version').select('version').executeTakeFirstOrThrow()).version);
  const read = async (user = 'w', query = '') => (await t.get(`/domain/${id}/${query}`, user)).body.data;

  it('bump the auth version on any change to a domain, its contacts or its name servers', async () => {
    const store = t.ctx.store;
    const changes: [string, () => Promise<unknown>][] = [
      ['domain toggle', () => store.updateTable('domain').set({ whois_privacy: 1 }).where('item_id', '=', id).execute()],
      ['contact update', () => store.updateTable('domain_contact').set({ phone: '+34.600000000' }).where('item_id', '=', id).execute()],
      [
        'name server insert',
        () => store.insertInto('domain_name_server').values({ item_id: id, position: 9, host: 'ns9.example.net' }).execute(),
      ],
      [
        'name server update',
        () => store.updateTable('domain_name_server').set({ host: 'ns8.example.net' }).where('position', '=', 9).execute(),
      ],
      ['name server delete', () => store.deleteFrom('domain_name_server').where('position', '=', 9).execute()],
    ];
    for (const [name, change] of changes) {
      const before = await version();
      await change();
      expect(await version(), name).toBeGreaterThan(before);
    }
    const contact = await store
      .selectFrom('domain_contact')
      .selectAll()
      .where('item_id', '=', id)
      .where('type', '=', 'tech')
      .executeTakeFirstOrThrow();
    let before = await version();
    await store.deleteFrom('domain_contact').where('item_id', '=', id).where('type', '=', 'tech').execute();
    expect(await version(), 'contact delete').toBeGreaterThan(before);
    before = await version();
    await store.insertInto('domain_contact').values(contact).execute();
    expect(await version(), 'contact insert').toBeGreaterThan(before);
  });

  it('read a domain from the store once for many reads while nothing changes', async () => {
    await t.ctx.store.updateTable('domain').set({ whois_privacy: 0 }).where('item_id', '=', id).execute();
    const reads = await statementsOn(t.ctx.store, 'domain_contact', async () => {
      for (let i = 0; i < 5; i++) expect((await read()).domain.whoisPrivacy).toBe(false);
    });
    expect(reads).toBe(1);
  });

  it('show a change another process made to a domain, its contacts or its name servers on the very next read', async () => {
    const store = t.ctx.store;
    await read();
    await store.updateTable('domain').set({ whois_privacy: 1 }).where('item_id', '=', id).execute();
    expect((await read()).domain.whoisPrivacy).toBe(true);
    await store
      .updateTable('domain_contact')
      .set({ email: 'nueva@example.com' })
      .where('item_id', '=', id)
      .where('type', '=', 'admin')
      .execute();
    expect((await read()).admin.email).toBe('nueva@example.com');
    await store
      .updateTable('domain_name_server')
      .set({ host: 'ns7.example.net' })
      .where('item_id', '=', id)
      .where('position', '=', 0)
      .execute();
    expect((await read()).domain.dns.servers[0]).toBe('ns7.example.net');
  });

  it('answer each caller and each language its own read: contacts hidden where the map hides them, countries named in the language asked', async () => {
    const before = await version();
    for (let round = 0; round < 2; round++) {
      expect((await read('w')).registrant.country).toBe('España');
      expect((await read('d')).registrant).toBeNull();
      expect((await read('w', '?language=ca')).registrant.country).toBe('Espanya');
      expect((await read('d', '?language=ca')).registrant).toBeNull();
      expect((await read('w', '?language=en')).registrant.country).toBe('Spain');
    }
    // Nothing changed in between: every read after the first of each kind came from memory.
    expect(await version()).toBe(before);
  });
});
