import { parseLevels } from '@atalaya/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HISTORY_PER_ZONE } from '../../src/modules/dns/history/record.ts';
import { createToken } from '../../src/modules/token/tokens.ts';
import { createAccount } from '../fixtures.ts';
import { describeStores } from '../stores.ts';
import { type DnsTest, openDnsTest } from './helpers.ts';
import { withoutSoa, zoneFile } from './zones.ts';

describeStores('the zone history on %s', (kind) => {
  let t: DnsTest;
  beforeAll(async () => {
    t = await openDnsTest(kind);
  });
  afterAll(() => t.ctx.close());
  const exportText = async () => withoutSoa((await t.get('export/')).body.data.text);
  const history = async (headers = t.w) => (await t.get('history/', headers)).body.data.changes;
  const revert = (id: number, headers = t.w) => t.post(`history/${id}/revert/?language=en`, {}, headers);

  it('keeps each change with the RRsets before and after, who and when, newest first', async () => {
    await t.list();
    const { dns } = (await t.create({ type: 'A', zona: 'web', value: '203.0.113.7', ttl: 600 })).body.data;
    await t.post(`${dns.id}/save/`, { value: '203.0.113.8', ttl: 600 });
    const [saved, created] = await history();
    expect(created).toMatchObject({
      kind: 'create',
      before: [],
      after: [{ name: 'web.zona.es', type: 'A', ttl: 600, values: ['203.0.113.7'] }],
    });
    expect(saved).toMatchObject({
      kind: 'save',
      by: expect.stringMatching(/^w@/),
      before: [{ name: 'web.zona.es', values: ['203.0.113.7'] }],
      after: [{ name: 'web.zona.es', values: ['203.0.113.8'] }],
      reverts: null,
      reverted: false,
    });
    expect(Math.abs(saved.at - Date.now() / 1000)).toBeLessThan(60);
  });

  it('names the API token a change was made with', async () => {
    const user = await t.ctx.store.selectFrom('user').select('id').where('username', '=', 'w').executeTakeFirstOrThrow();
    const parsed = parseLevels('all=write');
    if (!('map' in parsed)) throw new Error('scope');
    const { token } = await createToken(t.ctx.store, user.id, {
      name: 'deploy',
      scope: parsed.map,
      items: null,
      cidrs: [],
      expiresAt: null,
    });
    const reply = await t.post('create/', { type: 'A', zona: 'bot', value: '192.0.2.50', ttl: 0 }, { authorization: `Bearer ${token}` });
    expect(reply.status).toBe(200);
    expect((await history())[0].by).toMatch(/^w@.+ \(API: deploy\)$/);
  });

  it.each([
    [
      'an edit',
      async (x: DnsTest) => x.post(`${(await x.list()).find((r) => r.zona === 'web')!.id}/save/`, { value: '198.51.100.1', ttl: 3600 }),
    ],
    ['an import', (x: DnsTest) => x.post('import/', { zone: zoneFile('provider.zone') })],
    ['a restore of the defaults', (x: DnsTest) => x.get('restore/')],
    ['a delete of all records', (x: DnsTest) => x.get('delete/?confirm=1')],
  ])('reverts %s to an export identical to the one before', async (_name, change) => {
    const before = await exportText();
    expect((await change(t)).status).toBe(200);
    expect(await exportText()).not.toBe(before);
    const [latest] = await history();
    const reply = await revert(latest.id);
    expect(reply.status).toBe(200);
    expect(reply.body.system.info[0]).toBe('Change reverted');
    expect(await exportText()).toBe(before);
    const [undo, undone] = await history();
    expect(undo).toMatchObject({ kind: 'revert', reverts: latest.id });
    expect(undone).toMatchObject({ id: latest.id, reverted: true });
  });

  it('refuses a revert over a later change of the same records, and changes nothing', async () => {
    const { dns } = (await t.create({ type: 'TXT', zona: 'note', value: 'first', ttl: 0 })).body.data;
    const [created] = await history();
    await t.post(`${dns.id}/save/`, { value: 'second', ttl: 0 });
    const before = await exportText();
    const refused = await revert(created.id);
    expect(refused.status).toBe(409);
    expect(refused.body.system.errors[0]).toBe('These records changed since: revert the later changes first');
    expect(await exportText()).toBe(before);
    // A later change of other records does not stand in the way.
    await t.create({ type: 'A', zona: 'other', value: '192.0.2.44', ttl: 0 });
    const [, saved] = await history();
    expect((await revert(saved.id)).status).toBe(200);
    expect((await t.list()).find((r) => r.zona === 'note')!.value).toBe('first');
  });

  it('answers 404 for a change of another zone or none, and lets a reader list but not revert', async () => {
    const [latest] = await history();
    expect((await revert(999_999)).status).toBe(404);
    expect((await history(t.r))[0].id).toBe(latest.id);
    expect((await revert(latest.id, t.r)).status).toBe(403);
    const other = await createAccount(t.ctx.store, { users: { o: 'all=write' }, items: [{ reference: 'otro.es', service: 'normal' }] });
    const outsider = await other.as('o');
    expect((await t.get('history/', outsider)).status).toBe(404);
    expect((await revert(latest.id, outsider)).status).toBe(404);
  });

  it(`keeps the latest ${HISTORY_PER_ZONE} changes of a zone`, async () => {
    const { dns } = (await t.create({ type: 'TXT', zona: 'counter', value: '0', ttl: 0 })).body.data;
    for (let i = 1; i <= HISTORY_PER_ZONE; i++) await t.post(`${dns.id}/save/`, { value: String(i), ttl: 0 });
    const changes = await history();
    expect(changes).toHaveLength(HISTORY_PER_ZONE);
    expect(changes.at(-1).after[0].values).toEqual(['"1"']);
  });
});
