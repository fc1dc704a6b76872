import { describe, expect, it } from 'vitest';
import { FieldErrors } from '../../src/http/errors.ts';
import { checkZoneRules, deleteBlockers, keptByDeleteAll, type RuleRecord } from '../../src/modules/dns/rules.ts';

const ZONE = 'zona.es';
const rec = (zona: string, type: string, value: string, priority: number | null = null): RuleRecord => ({ zona, type, value, priority });

/** The zone the rules are checked against: apex NS (one in the zone, with its address), MX, A, www. */
const ZONE_RECORDS: RuleRecord[] = [
  rec('', 'NS', 'ns1.example.net.'),
  rec('', 'NS', 'ns.zona.es.'),
  rec('ns', 'A', '192.0.2.53'),
  rec('', 'MX', 'mail.zona.es.', 10),
  rec('', 'A', '192.0.2.1'),
  rec('www', 'CNAME', 'zona.es.'),
  rec('sub', 'NS', 'ns.example.net.'),
];

/** The refusal of a candidate as [field, key, params], or 'accepted'. */
function verdict(candidate: RuleRecord, others = ZONE_RECORDS) {
  try {
    checkZoneRules(candidate, others, ZONE);
    return 'accepted';
  } catch (error) {
    if (!(error instanceof FieldErrors)) throw error;
    const [field] = error.fields;
    return field.params ? [field.input, field.key, field.params] : [field.input, field.key];
  }
}

describe('the zone rules a record must keep', () => {
  it('keeps a CNAME away from the apex and alone at its name', () => {
    expect(verdict(rec('', 'CNAME', 'x.example.net.'))).toEqual(['zona', 'dns.cname_apex']);
    expect(verdict(rec('', 'CNAME', 'x.example.net.'), []), 'even in an empty zone').toEqual(['zona', 'dns.cname_apex']);
    expect(verdict(rec('www', 'CNAME', 'y.example.net.'))).toEqual(['zona', 'dns.cname_exclusive']);
    expect(verdict(rec('www', 'TXT', 'hello'))).toEqual(['zona', 'dns.cname_exclusive']);
    expect(verdict(rec('ns', 'CNAME', 'x.example.net.'))).toEqual(['zona', 'dns.cname_exclusive']);
    expect(verdict(rec('blog', 'CNAME', 'x.example.net.'))).toBe('accepted');
  });

  it('keeps an ANAME apart from A, AAAA and another ANAME', () => {
    const withAname = [...ZONE_RECORDS, rec('cdn', 'ANAME', 'cdn.example.net.')];
    for (const type of ['A', 'AAAA', 'ANAME']) {
      expect(verdict(rec('cdn', type, type === 'ANAME' ? 'x.example.net.' : '192.0.2.9'), withAname), type).toEqual([
        'zona',
        'dns.aname_conflict',
      ]);
    }
    expect(verdict(rec('ns', 'ANAME', 'x.example.net.'))).toEqual(['zona', 'dns.aname_conflict']);
    expect(verdict(rec('cdn', 'TXT', 'shared'), withAname)).toBe('accepted');
    expect(verdict(rec('edge', 'ANAME', 'x.example.net.'))).toBe('accepted');
  });

  it('refuses the same type and value twice, unless the priority differs', () => {
    expect(verdict(rec('', 'MX', 'mail.zona.es.', 10))).toEqual(['value', 'dns.duplicate']);
    expect(verdict(rec('', 'MX', 'mail.zona.es.', 20))).toBe('accepted');
    expect(verdict(rec('', 'MX', 'mx2.zona.es.', 10))).toBe('accepted');
    expect(verdict(rec('', 'A', '192.0.2.1'))).toEqual(['value', 'dns.duplicate']);
    expect(verdict(rec('', 'A', '192.0.2.2'))).toBe('accepted');
    expect(verdict(rec('ns', 'AAAA', '192.0.2.53'))).toBe('accepted');
  });

  it('keeps everything at and below a delegation but its NS records out', () => {
    expect(verdict(rec('a.sub', 'A', '192.0.2.7'))).toEqual(['zona', 'dns.delegated', { name: 'sub.zona.es' }]);
    expect(verdict(rec('b.a.sub', 'TXT', 'x'))).toEqual(['zona', 'dns.delegated', { name: 'sub.zona.es' }]);
    expect(verdict(rec('sub', 'TXT', 'x'))).toEqual(['zona', 'dns.delegation_conflict']);
    expect(verdict(rec('sub', 'NS', 'ns2.example.net.'))).toBe('accepted');
    expect(verdict(rec('xsub', 'A', '192.0.2.7')), 'a name that only ends like the cut').toBe('accepted');
    // A new delegation over a name that holds other records, or has names below it.
    expect(verdict(rec('ns', 'NS', 'ns.example.net.'))).toEqual(['zona', 'dns.delegation_conflict']);
    expect(verdict(rec('deep', 'NS', 'ns.example.net.'), [...ZONE_RECORDS, rec('x.deep', 'A', '192.0.2.8')])).toEqual([
      'zona',
      'dns.delegation_conflict',
    ]);
    expect(verdict(rec('deep', 'NS', 'ns.example.net.'), [...ZONE_RECORDS, rec('xdeep', 'A', '192.0.2.8')])).toBe('accepted');
    // Only a delegation minds the names below it; a record that is no NS does not.
    expect(verdict(rec('deep', 'TXT', 'x'), [...ZONE_RECORDS, rec('x.deep', 'A', '192.0.2.8')])).toBe('accepted');
    // A name holding NS and something else already (an old zone) takes neither more NS nor other types.
    const mixed = [...ZONE_RECORDS, rec('mix', 'NS', 'ns.example.net.'), rec('mix', 'TXT', 'old')];
    expect(verdict(rec('mix', 'NS', 'ns2.example.net.'), mixed)).toEqual(['zona', 'dns.delegation_conflict']);
    // The apex holds NS with everything else: no conflict there.
    expect(verdict(rec('', 'NS', 'ns2.example.net.'))).toBe('accepted');
    expect(verdict(rec('', 'TXT', 'v=spf1 -all'))).toBe('accepted');
  });

  it('wants an address for an in-zone name server, and none under a cut', () => {
    expect(verdict(rec('', 'NS', 'ns3.zona.es.'))).toEqual(['value', 'dns.ns_needs_address', { host: 'ns3.zona.es.' }]);
    expect(verdict(rec('', 'NS', 'ns.zona.es.'), []), 'its address gone').toEqual([
      'value',
      'dns.ns_needs_address',
      { host: 'ns.zona.es.' },
    ]);
    const withAaaa = [...ZONE_RECORDS, rec('ns6', 'AAAA', '2001:db8::53')];
    expect(verdict(rec('', 'NS', 'ns6.zona.es.'), withAaaa)).toBe('accepted');
    const withTxt = [...ZONE_RECORDS, rec('nst', 'TXT', 'not an address')];
    expect(verdict(rec('', 'NS', 'nst.zona.es.'), withTxt)).toEqual(['value', 'dns.ns_needs_address', { host: 'nst.zona.es.' }]);
    // A server under a delegation cannot be given an address in this zone, even if one is there.
    const glued = [...ZONE_RECORDS, rec('ns.sub', 'A', '192.0.2.54')];
    expect(verdict(rec('', 'NS', 'ns.sub.zona.es.'), glued)).toEqual(['value', 'dns.ns_needs_address', { host: 'ns.sub.zona.es.' }]);
    // Nor one under its own new delegation.
    expect(verdict(rec('sub', 'NS', 'ns.sub.zona.es.'))).toEqual(['value', 'dns.ns_needs_address', { host: 'ns.sub.zona.es.' }]);
    expect(verdict(rec('other', 'NS', 'other.zona.es.'), [...ZONE_RECORDS, rec('other', 'NS', 'x.example.net.')])).toEqual([
      'value',
      'dns.ns_needs_address',
      { host: 'other.zona.es.' },
    ]);
    expect(verdict(rec('', 'NS', 'sub.zona.es.'))).toEqual(['value', 'dns.ns_needs_address', { host: 'sub.zona.es.' }]);
    expect(verdict(rec('', 'NS', 'zona.es.'), [...ZONE_RECORDS])).toBe('accepted');
    expect(verdict(rec('', 'NS', 'ns.example.org.'))).toBe('accepted');
  });

  it('tells which records cannot be deleted: the last apex NS, the last address of an in-zone server', () => {
    const blockers = deleteBlockers(ZONE_RECORDS, ZONE);
    expect(ZONE_RECORDS.map(blockers)).toEqual([
      null,
      null,
      { key: 'dns.needed_by_ns', params: { host: 'ns.zona.es' } },
      null,
      null,
      null,
      null,
    ]);
    const oneNs = [
      rec('', 'NS', 'ns.zona.es.'),
      rec('ns', 'A', '192.0.2.53'),
      rec('ns', 'AAAA', '2001:db8::53'),
      rec('sub', 'NS', 'x.example.'),
      rec('', 'A', '192.0.2.1'),
      rec('', 'MX', 'mail.zona.es.', 10),
    ];
    expect(oneNs.map(deleteBlockers(oneNs, ZONE))).toEqual([{ key: 'dns.last_ns' }, null, null, null, null, null]);
    // Other records at the server's name are no address: its one A stays needed.
    const withText = [rec('', 'NS', 'ns.zona.es.'), rec('', 'NS', 'ns1.example.net.'), rec('ns', 'A', '192.0.2.53'), rec('ns', 'TXT', 'x')];
    expect(withText.map(deleteBlockers(withText, ZONE))).toEqual([
      null,
      null,
      { key: 'dns.needed_by_ns', params: { host: 'ns.zona.es' } },
      null,
    ]);
  });

  it('keeps the apex NS set and the addresses of its in-zone servers on delete all', () => {
    // Not the addresses named by other records: a delegation's in-zone server, the MX host.
    const all = [
      ...ZONE_RECORDS,
      rec('ns', 'AAAA', '2001:db8::53'),
      rec('ns', 'TXT', 'x'),
      rec('deleg', 'NS', 'ns.deleg2.zona.es.'),
      rec('ns.deleg2', 'A', '192.0.2.55'),
      rec('mail', 'A', '192.0.2.25'),
    ];
    const kept = keptByDeleteAll(all, ZONE);
    expect(all.filter(kept)).toEqual([
      rec('', 'NS', 'ns1.example.net.'),
      rec('', 'NS', 'ns.zona.es.'),
      rec('ns', 'A', '192.0.2.53'),
      rec('ns', 'AAAA', '2001:db8::53'),
    ]);
  });
});
