import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { COMMANDS } from '../../src/cli/commands.ts';
import { exportZone } from '../../src/modules/dns/bind.ts';
import { txtContent } from '../../src/modules/dns/rrsets.ts';
import { skipReason } from '../skip.ts';
import { describeStores } from '../stores.ts';
import { type DnsTest, openDnsTest } from './helpers.ts';
import { checkZone } from './powerdns-harness.ts';
import { ONE_OF_EACH } from './records.ts';

const HAS_CHECKZONE = !skipReason(
  existsSync('/usr/bin/named-checkzone') || existsSync('/usr/sbin/named-checkzone')
    ? null
    : 'named-checkzone (bind9-utils) is missing: zone export checks',
);

describe('TXT character-strings', () => {
  it('are cut every 255 bytes, with quotes, backslashes and non-ASCII bytes escaped', () => {
    expect(txtContent('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(txtContent('ñ')).toBe('"\\195\\177"');
    expect(txtContent('x'.repeat(256))).toBe(`"${'x'.repeat(255)}" "x"`);
  });
});

describeStores('the BIND export on %s', (kind) => {
  let t: DnsTest;
  beforeAll(async () => {
    t = await openDnsTest(kind);
  });
  afterAll(() => t.ctx.close());

  it('writes SOA, every record and ANAME as RFC 3597 TYPE65401', async () => {
    for (const record of ONE_OF_EACH) expect((await t.create(record)).status).toBe(200);
    const text: string = (await t.get('export/')).body.data.text;
    expect(text).toMatch(/^\$ORIGIN zona\.es\.\n\$TTL 3600\nzona\.es\. 3600 IN SOA ns1\.atalaya\.test\. hostmaster\.zona\.es\. \d+ /);
    expect(text).toContain('edge.zona.es. 3600 IN TYPE65401 \\# 17 0363646E076578616D706C65036E657400');
    expect(text).toContain('_sip._tcp.zona.es. 3600 IN SRV 10 5 5060 sip.example.net.');
    expect(text).toContain('zona.es. 3600 IN CAA 0 issue "letsencrypt.org"');
  });

  it.skipIf(!HAS_CHECKZONE)('is accepted by named-checkzone, from the call and from the CLI', async () => {
    const text: string = (await t.get('export/')).body.data.text;
    expect(await checkZone('zona.es', text)).toMatchObject({ ok: true });
    const realm = (await t.ctx.store.selectFrom('realm').select('name').executeTakeFirstOrThrow()).name;
    let printed = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      printed += String(chunk);
      return true;
    });
    try {
      await COMMANDS['zone-export'].run(t.ctx.app.runtime, [realm, 'zona.es'], {});
    } finally {
      spy.mockRestore();
    }
    expect(printed).toBe(text);
  });

  it('is pure: the same records give the same text, whenever asked, and are left as they were', () => {
    const settings = { defaultTtl: 600, nameservers: ['ns.x.'], hostmaster: 'h.x.' } as Parameters<typeof exportZone>[3];
    const records = () => [
      { zona: 'a', type: 'TXT', ttl: 0, priority: null, value: 'hi' },
      { zona: '', type: 'MX', ttl: 3600, priority: 10, value: 'mx.z.es.' },
    ];
    const given = records().map((r) => Object.freeze(r));
    const expected =
      '$ORIGIN z.es.\n$TTL 600\nz.es. 600 IN SOA ns.x. h.x. 7 10800 3600 604800 3600\na.z.es. 600 IN TXT "hi"\nz.es. 3600 IN MX 10 mx.z.es.\n';
    // Frozen input: a change to it throws in strict mode.
    expect(exportZone(given, 'z.es', 7, settings)).toBe(expected);
    expect(given).toEqual(records());
    vi.useFakeTimers({ now: new Date('2031-05-06T07:08:09Z') });
    try {
      expect(exportZone(records(), 'z.es', 7, settings)).toBe(expected);
    } finally {
      vi.useRealTimers();
    }
  });
});
