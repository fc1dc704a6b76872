import { afterAll, beforeAll, expect, it } from 'vitest';
import { keyTag } from '../../src/drivers/registry/keytag.ts';
import { type DomainTest, describeRegistries, fieldErrors, openDomainTest } from './helpers.ts';

const SHA256 = 'A'.repeat(64);
const KEY = Buffer.alloc(32, 7).toString('base64');

describeRegistries('DNSSEC on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());
  const base = (reference = 'y.com') => `/domain/${t.id(reference)}/dnssec`;
  const digest = (extra: Record<string, string> = {}) => ({
    type: 'digest',
    keytag: '2371',
    algorithm: '13',
    digesttype: '2',
    digest: SHA256,
    ...extra,
  });

  it('offers the digest type for .com and the public-key type for .eu, with the code tables', async () => {
    const { status, body } = await t.get(`${base()}/createinit/`);
    expect(status).toBe(200);
    expect(body.data.type).toBe('digest');
    expect(Object.keys(body.data.algorithms)).toEqual(['3', '5', '6', '7', '8', '10', '13', '14', '15', '16']);
    expect(body.data.digestTypes).toEqual({ 1: 'SHA-1', 2: 'SHA-256', 3: 'GOST R 34.11-94', 4: 'SHA-384' });
    expect(body.data.flags).toEqual({ 256: 'ZSK', 257: 'KSK' });
    expect(body.data.protocols).toEqual({ 3: 'DNSSEC' });
    expect((await t.get(`${base('z.eu')}/createinit/`)).body.data.type).toBe('pubkey');
  });

  it('creates, lists and deletes DS data of every digest length', async () => {
    for (const [type, length] of [
      ['1', 40],
      ['2', 64],
      ['3', 64],
      ['4', 96],
    ] as const) {
      const res = await t.post(`${base()}/create/?language=en`, digest({ digesttype: type, digest: 'b'.repeat(length) }));
      expect(res.status).toBe(200);
      expect(res.body.system.info).toEqual(['DNSSEC record created']);
    }
    const list = (await t.get(`${base()}/list/`, 'r')).body.data.dnssec;
    expect(list).toHaveLength(4);
    expect(list[0]).toEqual({
      id: list[0].id,
      type: 'digest',
      keytag: 2371,
      algorithm: 13,
      digesttype: 1,
      digest: 'B'.repeat(40),
      flags: null,
      protocols: null,
      // Entered by hand: the panel does not manage it, so it may be deleted here.
      managed: false,
    });
    expect((await t.get(`${base()}/${list[0].id}/delete/`)).status).toBe(200);
    expect((await t.get(`${base()}/list/`)).body.data.dnssec).toHaveLength(3);
  });

  it('creates key data for .eu, with the key tag computed from the key', async () => {
    const res = await t.post(`${base('z.eu')}/create/`, { type: 'pubkey', flags: '257', protocols: '3', algorithm: '15', digest: KEY });
    expect(res.status).toBe(200);
    const [record] = (await t.get(`${base('z.eu')}/list/`)).body.data.dnssec;
    expect(record).toMatchObject({
      type: 'pubkey',
      flags: 257,
      protocols: 3,
      algorithm: 15,
      digest: KEY,
      digesttype: null,
      keytag: keyTag(257, 3, 15, KEY),
    });
  });

  it('computes key tags as RFC 4034 Appendix B does', () => {
    // The KSK of the root zone (2017), key tag 20326.
    const root =
      'AwEAAaz/tAm8yTn4Mfeh5eyI96WSVexTBAvkMgJzkKTOiW1vkIbzxeF3+/4RgWOq7HrxRixHlFlExOLAJr5emLvN7SWXgnLh4+B5xQlNVz8Og8kvArMtNROxVQuCaSnIDdD5LKyWbRd2n9WGe2R8PzgCmr3EgVLrjyBxWezF0jLHwVN8efS3rCj/EWgvIWgb9tarpVUDK/b58Da+sqqls3eNbuv7pr+eoZG+SrDK6nWeL3c6H5Apxz7LjVc1uTIdsIXxuOLYA4/ilBmSVIzuDWfdRUfhHdY6+cn8HFRm+2hM8AnXGXws9555KrUB5qihylGa8subX2Nn6UwNR1AkUTV74bU=';
    expect(keyTag(257, 3, 8, root)).toBe(20326);
  });

  it.each([
    [{ keytag: '65536' }, { keytag: 'Must be at most 65535' }],
    [{ keytag: '-1' }, { keytag: 'Must be a number' }],
    [{ keytag: '' }, { keytag: 'Required field' }],
    [{ algorithm: '1' }, { algorithm: 'Invalid option' }],
    [{ algorithm: '253' }, { algorithm: 'Invalid option' }],
    [{ algorithm: '' }, { algorithm: 'Required field' }],
    [{ digesttype: '5' }, { digesttype: 'Invalid option' }],
    [{ digest: 'A'.repeat(63) }, { digest: 'Invalid digest: hexadecimal of 40 (SHA-1), 64 (SHA-256, GOST) or 96 (SHA-384) characters' }],
    [{ digest: 'A'.repeat(40) }, { digest: 'Invalid digest: hexadecimal of 40 (SHA-1), 64 (SHA-256, GOST) or 96 (SHA-384) characters' }],
    [{ digest: 'G'.repeat(64) }, { digest: 'Invalid digest: hexadecimal of 40 (SHA-1), 64 (SHA-256, GOST) or 96 (SHA-384) characters' }],
    [{ digest: '' }, { digest: 'Required field' }],
    [{ type: 'other' }, { type: 'Invalid option' }],
  ])('refuses digest data with %j', async (extra, errors) => {
    const res = await t.post(`${base()}/create/?language=en`, digest(extra));
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual(errors);
  });

  it.each([
    [{ flags: '1' }, { flags: 'Invalid option' }],
    [{ protocols: '4' }, { protocols: 'Invalid option' }],
    [{ digest: 'not base64!' }, { digest: 'Invalid public key (base64)' }],
    [{ algorithm: '12' }, { algorithm: 'Invalid option' }],
  ])('refuses key data with %j', async (extra, errors) => {
    const res = await t.post(`${base('z.eu')}/create/?language=en`, {
      type: 'pubkey',
      flags: '257',
      protocols: '3',
      algorithm: '15',
      digest: KEY,
      ...extra,
    });
    expect(res.status).toBe(400);
    expect(fieldErrors(res.body)).toEqual(errors);
  });

  it('refuses the type the registry does not take, and a duplicate', async () => {
    const wrong = await t.post(`${base('z.eu')}/create/?language=en`, digest());
    expect(fieldErrors(wrong.body)).toEqual({ type: "This domain's registry only accepts DNSSEC data of type pubkey" });
    await t.post(`${base()}/create/`, digest({ keytag: '1000' }));
    const again = await t.post(`${base()}/create/?language=en`, digest({ keytag: '1000' }));
    expect(again.status).toBe(400);
    expect(fieldErrors(again.body)).toEqual({ digest: 'Already exists' });
  });

  it('refuses at the registry the same key data twice, which has no digest type', async () => {
    const { registry } = t.ctx.app.runtime.drivers;
    const key = { type: 'pubkey', keyTag: 4242, algorithm: 13, digestType: null, digest: KEY, flags: 256, protocol: 3 } as const;
    await registry.addSecDns(t.id('z.eu'), key);
    await expect(registry.addSecDns(t.id('z.eu'), key)).rejects.toMatchObject({ code: 'exists' });
  });

  it('refuses read-only users, other realms, blocked domains, foreign ids and missing sessions', async () => {
    await t.post(`${base()}/create/`, digest({ keytag: '2000' }));
    const { id } = (await t.get(`${base()}/list/`)).body.data.dnssec.find((d: { keytag: number }) => d.keytag === 2000);
    expect((await t.post(`${base()}/create/`, digest({ keytag: '2001' }), 'r')).status).toBe(403);
    expect((await t.get(`${base()}/${id}/delete/`, 'r')).status).toBe(403);
    expect((await t.get(`${base()}/list/`, 'd')).status).toBe(404);
    expect((await t.get(`${base('other.com')}/list/`)).status).toBe(404);
    expect((await t.get(`${base('other.com')}/createinit/`)).status).toBe(404);
    expect((await t.get(`${base('z.eu')}/${id}/delete/`)).status).toBe(404);
    expect((await t.get(`${base()}/999999/delete/`)).status).toBe(404);
    expect((await t.get(`${base()}/list/`, null)).body.system.statusCode).toBe(101);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await t.post(`${base()}/create/`, digest({ keytag: '2002' }))).status).toBe(409);
    expect((await t.get(`${base()}/${id}/delete/`)).status).toBe(409);
    await t.get(`/domain/${t.id('y.com')}/toggle/block/`);
    expect((await t.get(`${base()}/list/`)).body.data.dnssec.some((d: { id: number }) => d.id === id)).toBe(true);
  });
});
