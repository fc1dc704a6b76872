import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DomainTest, describeRegistries, fieldErrors, openDomainTest } from './helpers.ts';

const PERSON = {
  isOrg: '0',
  firstName: 'Ana',
  lastName: 'Serra Coll',
  identNumber: '43123456t',
  email: 'Ana@Example.com',
  phone: '+34.971123456',
  country: 'es',
  state: 'PM',
  city: 'palma',
  postalCode: '07001',
  address: 'Carrer de Sant Miquel, 3',
};

describeRegistries('contacts and the address lookup on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());
  const owner = (fields: Record<string, string>, user?: string | null) =>
    // A new registrant confirmed, without the transfer lock (owner.test.ts covers the change of owner itself).
    t.post(`/domain/${t.id('y.com')}/owner/save/?language=en`, { confirmOwnerChange: '1', transferLockOptOut: '1', ...fields }, user);
  const contacts = (fields: Record<string, string>, user?: string | null) =>
    t.post(`/domain/${t.id('y.com')}/contacts/save/?language=en`, fields, user);
  const domain = async () => (await t.get(`/domain/${t.id('y.com')}/`)).body.data;

  it('saves the registrant, resolving state and city keys from the lookup', async () => {
    const res = await owner(PERSON);
    expect(res.status).toBe(200);
    expect(res.body.system.info).toEqual(['Registrant saved']);
    expect((await domain()).registrant).toEqual({
      type: 'individual',
      orgName: '',
      name: 'Ana Serra Coll',
      firstName: 'Ana',
      lastName: 'Serra Coll',
      vat: '43123456T',
      email: 'ana@example.com',
      phone: '+34.971123456',
      address: 'Carrer de Sant Miquel, 3',
      postalCode: '07001',
      city: 'Palma',
      cityKey: 'Palma',
      state: 'Balearic Islands',
      stateKey: 'PM',
      country: 'España',
      countryKey: 'ES',
    });
  });

  it('keeps a state and city it does not know as free text', async () => {
    expect((await owner({ ...PERSON, country: 'AD', state: 'Nowhere', city: 'Somewhere', postalCode: 'AD500' })).status).toBe(200);
    expect((await domain()).registrant).toMatchObject({ state: 'Nowhere', stateKey: '', city: 'Somewhere', cityKey: '', countryKey: 'AD' });
  });

  it('saves one contact with only_contact and the three with all_contacts', async () => {
    const org = { ...PERSON, isOrg: '1', orgName: 'Serra i Fills SL', identNumber: 'B07111111' };
    expect((await contacts({ ...org, type: 'tech', mode: 'only_contact' })).body.system.info).toEqual(['Contact saved']);
    let data = await domain();
    expect(data.tech).toMatchObject({ type: 'organization', name: 'Serra i Fills SL', vat: 'B07111111' });
    expect(data.admin.orgName).not.toBe('Serra i Fills SL');
    const all = await contacts({ ...PERSON, firstName: 'Pere', type: 'admin', mode: 'all_contacts' });
    expect(all.body.system.info).toEqual(['Administrative, billing and technical contacts saved']);
    data = await domain();
    for (const role of ['admin', 'billing', 'tech'])
      expect(data[role]).toMatchObject({ firstName: 'Pere', type: 'individual', orgName: '' });
    expect(data.registrant.firstName).not.toBe('Pere');
  });

  it.each([
    [{ firstName: '' }, { firstName: 'Required field' }],
    [{ lastName: '' }, { lastName: 'Required field' }],
    [{ identNumber: '' }, { identNumber: 'Required field' }],
    [{ identNumber: '$$$' }, { identNumber: 'Invalid identification number' }],
    [{ email: 'ana' }, { email: 'Invalid e-mail address' }],
    [{ phone: '971123456' }, { phone: 'Invalid phone: use the format +prefix.number' }],
    [{ phone: '+34 971123456' }, { phone: 'Invalid phone: use the format +prefix.number' }],
    [{ phone: '+34.12345678901234' }, { phone: 'Invalid phone: use the format +prefix.number' }],
    [{ country: 'XX' }, { country: 'Invalid country' }],
    [{ country: 'ESP' }, { country: 'Must have at most 2 characters' }],
    [{ state: '' }, { state: 'Required field' }],
    [{ city: '' }, { city: 'Required field' }],
    [{ postalCode: '' }, { postalCode: 'Required field' }],
    [{ postalCode: '070011' }, { postalCode: 'Invalid postal code for the chosen country' }],
    [{ postalCode: '0700' }, { postalCode: 'Invalid postal code for the chosen country' }],
    [{ postalCode: '07-01' }, { postalCode: 'Invalid postal code for the chosen country' }],
    [{ postalCode: 'SW1A 1AA' }, { postalCode: 'Invalid postal code for the chosen country' }],
    [{ country: 'GB', postalCode: '07001' }, { postalCode: 'Invalid postal code for the chosen country' }],
    [{ postalCode: '1234567890123' }, { postalCode: 'Must have at most 12 characters' }],
    [{ address: '' }, { address: 'Required field' }],
    [{ isOrg: '1' }, { orgName: 'Required field' }],
    [{ isOrg: '2' }, { isOrg: 'Invalid option' }],
    // Text types (decision 015): control characters are refused under the field, never stored.
    [{ firstName: 'An\u0000a' }, { firstName: 'Cannot contain control characters' }],
    [{ address: 'Carrer 3\r\nPalma' }, { address: 'Cannot contain control characters' }],
    [{ city: 'pal\u001bma' }, { city: 'Cannot contain control characters' }],
    // A right-to-left override or isolate would turn the name around wherever it is shown.
    [{ firstName: 'Ana\u202eanilo' }, { firstName: 'Cannot contain control characters' }],
    [{ address: 'Carrer \u2067Major\u2069 3' }, { address: 'Cannot contain control characters' }],
  ])('refuses %j', async (change, errors) => {
    const res = await owner({ ...PERSON, ...change });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual(errors);
  });

  it.each([
    ['GB', 'SW1A 1AA'],
    ['NL', '1012 AB'],
    ['ES', '28013'],
    ['US', '10001-0001'],
    ['IE', 'D02 X285'],
    // No known format (Antarctica): any short code of letters and digits.
    ['AQ', 'BIQQ 1ZZ'],
  ])('saves a %s registrant with the postal code %s, written as that country writes it', async (country, postalCode) => {
    const res = await owner({ ...PERSON, country, postalCode });
    expect(res.status).toBe(200);
    expect((await domain()).registrant).toMatchObject({ postalCode });
  });

  it('refuses a right-to-left override in a contact’s name under the field, in the caller’s language, and keeps the contact', async () => {
    const before = (await domain()).tech;
    const res = await t.post(`/domain/${t.id('y.com')}/contacts/save/?language=ca`, {
      ...PERSON,
      lastName: 'Serra\u202eColl',
      type: 'tech',
      mode: 'only_contact',
    });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual({ lastName: 'No pot contenir caràcters de control' });
    expect((await domain()).tech).toEqual(before);
  });

  it('refuses a contact save without a valid type or mode', async () => {
    expect(fieldErrors((await contacts({ ...PERSON, type: 'registrant', mode: 'only_contact' })).body)).toEqual({ type: 'Invalid option' });
    expect(fieldErrors((await contacts({ ...PERSON, type: 'admin' })).body)).toEqual({ mode: 'Required field' });
    expect(fieldErrors((await contacts({ ...PERSON, type: 'admin', mode: 'everything' })).body)).toEqual({ mode: 'Invalid option' });
  });

  it('separates the registrant (owner contacts) from the others (contacts)', async () => {
    const { grant, parsePermissionMap } = await import('../../src/modules/provisioning/accounts.ts');
    await grant(t.ctx.store, t.account.realm, 'd', 'y.com', parsePermissionMap('domain_contacts=write,domain_ownercontacts=read'));
    expect((await contacts({ ...PERSON, type: 'billing', mode: 'only_contact' }, 'd')).status).toBe(200);
    expect((await owner(PERSON, 'd')).status).toBe(403);
    const data = (await t.get(`/domain/${t.id('y.com')}/`, 'd')).body.data;
    expect(data.registrant).not.toBeNull();
  });

  it('refuses read-only users, other realms, blocked domains and missing sessions', async () => {
    expect((await owner(PERSON, 'r')).status).toBe(403);
    expect((await contacts({ ...PERSON, type: 'admin', mode: 'only_contact' }, 'r')).status).toBe(403);
    expect((await t.post(`/domain/${t.id('other.com')}/owner/save/`, PERSON)).status).toBe(404);
    expect((await owner(PERSON, null)).body.system.statusCode).toBe(101);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await owner({ ...PERSON, firstName: 'Blocked' })).status).toBe(409);
    expect((await contacts({ ...PERSON, type: 'admin', mode: 'all_contacts' })).status).toBe(409);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await domain()).registrant.firstName).not.toBe('Blocked');
  });

  it('looks up countries in the language of the call, states, cities and echoes the selection', async () => {
    const empty = await t.post('/tools/country/?language=ca', {});
    expect(empty.status).toBe(200);
    expect(empty.body.data).toMatchObject({
      states: [],
      cities: [],
      postalCodes: [],
      selected: { country: '', state: '', city: '', postalCode: '' },
    });
    expect(empty.body.data.country.ES).toBe('Espanya');
    const chosen = await t.post('/tools/country/', { country: 'es', state: 'balearic islands', city: 'PALMA', postal_code: '07001' });
    const data = chosen.body.data;
    expect(data.country.ES).toBe('España');
    expect(data.states).toContainEqual({ key: 'PM', name: 'Balearic Islands' });
    expect(data.cities).toContainEqual({ key: 'Palma', name: 'Palma' });
    expect(data.selected).toEqual({ country: 'ES', state: 'PM', city: 'Palma', postalCode: '07001' });
    expect(data.names).toEqual({ state: 'Balearic Islands', city: 'Palma' });
    expect(data.postalCode).toEqual({ known: true, valid: true });
    const wrong = await t.post('/tools/country/', { country: 'gb', postal_code: '07001' });
    expect(wrong.body.data.postalCode).toEqual({ known: true, valid: false });
    const uk = await t.post('/tools/country/', { country: 'gb', postal_code: 'SW1A 1AA' });
    expect(uk.body.data.postalCode).toEqual({ known: true, valid: true });
    expect(empty.body.data.postalCode).toEqual({ known: false, valid: null });
    const free = await t.post('/tools/country/', { country: 'ZZ', state: 'x', city: 'y' });
    expect(free.body.data).toMatchObject({ states: [], selected: { country: '', state: 'x', city: 'y' } });
    expect((await t.post('/tools/country/', {}, null)).body.system.statusCode).toBe(101);
  });
});
