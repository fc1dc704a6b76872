import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DomainTest, describeRegistries, type Fields, openDomainTest } from './helpers.ts';

const FIELDS = [
  'default-ns',
  'dns',
  'name',
  'ip',
  'ipv6',
  'type',
  'keytag',
  'algorithm',
  'digesttype',
  'digest',
  'flags',
  'protocols',
  'isOrg',
  'orgName',
  'firstName',
  'lastName',
  'identNumber',
  'email',
  'phone',
  'country',
  'state',
  'city',
  'postalCode',
  'address',
  'mode',
  'postal_code',
  '__proto__',
  'language',
];
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 80 }),
  fc.constantFrom(
    '',
    '0',
    '1',
    '-1',
    '65536',
    '1e3',
    'NaN',
    'digest',
    'pubkey',
    'ES',
    '+34.1',
    '192.0.2.1',
    '::',
    'all_contacts',
    'ns1.y.com',
    'a'.repeat(5000),
  ),
);
const fields: fc.Arbitrary<Fields> = fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(text, fc.array(text, { maxLength: 9 })), {
  maxKeys: 14,
});
const POSTS = ['dnsedit/', 'gluerecord/create/', 'gluerecord/1/save/', 'dnssec/create/', 'owner/save/', 'contacts/save/'];

describeRegistries('no input makes the domain calls fail with 500 on %s', (kind, registry) => {
  let t: DomainTest;
  beforeAll(async () => {
    t = await openDomainTest(kind, registry);
  });
  afterAll(() => t.close());
  const runs = kind === 'sqlite' ? 60 : 25;

  it.each(POSTS)('POST /domain/{id}/%s answers 2xx or 4xx', async (path) => {
    await fc.assert(
      fc.asyncProperty(fields, fc.constantFrom('x.es', 'y.com', 'z.eu'), async (body, reference) => {
        const res = await t.post(`/domain/${t.id(reference)}/${path}`, body);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: runs },
    );
  });

  it('POST /tools/country/ answers 2xx or 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(fields, async (body) => {
        expect((await t.post('/tools/country/', body)).status).toBeLessThan(500);
      }),
      { numRuns: runs },
    );
  });

  it('GET calls with any path segments answer 2xx or 4xx', async () => {
    const segment = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.constantFrom('1', '0', '-1', '9007199254740993', '1e3'));
    const templates = [
      '/domain/{a}/',
      '/domain/{a}/toggle/{b}/',
      '/domain/{a}/authcode/',
      '/domains/{a}/dnsinit/',
      '/domain/{a}/dnssec/{b}/delete/',
      '/domain/{a}/gluerecord/{b}/delete/',
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...templates), segment, segment, async (template, a, b) => {
        const url = template.replace('{a}', encodeURIComponent(a)).replace('{b}', encodeURIComponent(b));
        expect((await t.get(url)).status).toBeLessThan(500);
      }),
      { numRuns: runs * 2 },
    );
  });
});
