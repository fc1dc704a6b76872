import { afterAll, beforeAll, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { liftTransferLocks, lockDaysFor } from '../../src/modules/domain/owner.ts';
import { type DomainTest, describeRegistries, fieldErrors, openDomainTest } from './helpers.ts';

const DAY = 86_400;
const PERSON = {
  isOrg: '0',
  firstName: 'Nora',
  lastName: 'Nueva',
  identNumber: '43123456T',
  email: 'nora@example.com',
  phone: '+34.971123456',
  country: 'ES',
  state: 'PM',
  city: 'Palma',
  postalCode: '07001',
  address: 'Carrer de Sant Miquel, 3',
};

describeRegistries('a change of owner on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());

  const domain = async (reference: string) => (await t.get(`/domain/${t.id(reference)}/`)).body.data;
  const owner = (reference: string, fields: Record<string, string>, language = 'en') =>
    t.post(`/domain/${t.id(reference)}/owner/save/?language=${language}`, fields);
  const changes = async () => (await t.ctx.store.selectFrom('registry_change').select('id').execute()).length;
  const consents = async (reference: string) =>
    (
      await t.ctx.store
        .selectFrom('audit_event')
        .selectAll()
        .where('action', '=', 'domain.owner_change_consent')
        .where('item_id', '=', t.id(reference))
        .execute()
    ).map((e) => JSON.parse(e.detail));

  it('asks for confirmation, in the caller language under its field, before the registrant becomes another person, and changes nothing meanwhile', async () => {
    const before = await domain('y.com');
    const queued = await changes();
    const refused = await owner('y.com', PERSON);
    expect(refused.status).toBe(400);
    expect(fieldErrors(refused.body)).toEqual({
      confirmOwnerChange:
        'The registrant becomes another person or organisation: confirm the change. The domain cannot be transferred for 60 days unless you opt out',
    });
    expect(fieldErrors((await owner('y.com', PERSON, 'es')).body).confirmOwnerChange).toMatch(
      /^El titular pasa a ser otra persona.*60 días/,
    );
    expect(fieldErrors((await owner('y.com', PERSON, 'ca')).body).confirmOwnerChange).toMatch(
      /^El titular passa a ser una altra persona.*60 dies/,
    );
    expect(await changes()).toBe(queued);
    expect((await domain('y.com')).registrant).toEqual(before.registrant);
  });

  it('changes the registrant once confirmed, locks transfers at the registry for 60 days, and records the consent', async () => {
    const res = await owner('y.com', { ...PERSON, confirmOwnerChange: '1' });
    expect(res.status).toBe(200);
    const data = await domain('y.com');
    expect(data.registrant).toMatchObject({ firstName: 'Nora', lastName: 'Nueva' });
    expect(data.domain.transferBlock).toBe(true);
    const until = data.domain.transferLockUntil;
    expect(Math.abs(until - (Math.floor(Date.now() / 1000) + 60 * DAY))).toBeLessThan(60);
    expect(res.body.system.info).toEqual([
      `Registrant changed: the domain cannot be transferred until ${new Date(until * 1000).toISOString().slice(0, 10)}`,
    ]);
    expect(await consents('y.com')).toEqual([
      { lockDays: 60, optOut: false, lockedUntil: new Date(until * 1000).toISOString().slice(0, 10) },
    ]);
  });

  it('refuses to lift the transfer block before the lock ends, and the schedule lifts it at the registry when it ends', async () => {
    const locked = await t.get(`/domain/${t.id('y.com')}/toggle/transferblock/?language=en`);
    expect(locked.status).toBe(409);
    expect((await domain('y.com')).domain.transferBlock).toBe(true);
    const until = (await domain('y.com')).domain.transferLockUntil;
    expect(await t.ctx.store.transaction().execute((trx) => liftTransferLocks(trx, until - 1))).toBe(0);
    expect(await t.ctx.store.transaction().execute((trx) => liftTransferLocks(trx, until))).toBe(1);
    await t.drain();
    const after = (await domain('y.com')).domain;
    expect({ transferBlock: after.transferBlock, transferLockUntil: after.transferLockUntil }).toEqual({
      transferBlock: false,
      transferLockUntil: 0,
    });
  });

  it('leaves transfers open when the user opts out, recording the opt-out with the consent', async () => {
    const res = await owner('z.eu', { ...PERSON, firstName: 'Otra', confirmOwnerChange: '1', transferLockOptOut: '1' });
    expect(res.status).toBe(200);
    const data = await domain('z.eu');
    expect(data.registrant.firstName).toBe('Otra');
    expect({ block: data.domain.transferBlock, until: data.domain.transferLockUntil }).toEqual({ block: false, until: 0 });
    expect(await consents('z.eu')).toEqual([{ lockDays: 60, optOut: true, lockedUntil: '' }]);
  });

  it('saves a corrected address or phone of the same registrant without asking', async () => {
    const res = await owner('z.eu', { ...PERSON, firstName: 'Otra', address: 'Carrer Nou, 5', phone: '+34.971000000' });
    expect(res.status).toBe(200);
    expect((await domain('z.eu')).registrant.address).toBe('Carrer Nou, 5');
    expect(await consents('z.eu')).toHaveLength(1);
  });

  it('asks again when only the e-mail changes, and when only the organisation changes', async () => {
    expect(fieldErrors((await owner('z.eu', { ...PERSON, firstName: 'Otra', email: 'else@example.com' })).body)).toHaveProperty(
      'confirmOwnerChange',
    );
    expect(fieldErrors((await owner('z.eu', { ...PERSON, firstName: 'Otra', isOrg: '1', orgName: 'Otra SL' })).body)).toHaveProperty(
      'confirmOwnerChange',
    );
  });
});

it('takes the lock days of a TLD from the configuration, the default for the rest, and refuses a malformed TLD at start', () => {
  const env = { ATALAYA_CONFIG: '' } as NodeJS.ProcessEnv;
  expect(lockDaysFor(loadConfig(env), 'a.com')).toBe(60);
  const config = loadConfig(env, { 'ownerChange.tlds': { es: 0, eu: 30 } });
  expect([lockDaysFor(config, 'a.es'), lockDaysFor(config, 'a.eu'), lockDaysFor(config, 'a.com')]).toEqual([0, 30, 60]);
  expect(() => loadConfig(env, { 'ownerChange.tlds': { '.ES': 0 } })).toThrow(ConfigError);
  expect(() => loadConfig(env, { 'ownerChange.lockDays': 400 })).toThrow(/ownerChange\.lockDays/);
});
