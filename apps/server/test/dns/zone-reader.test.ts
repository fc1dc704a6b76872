import { describe, expect, it } from 'vitest';
import { parseMasterFile, readTtl } from '../../src/modules/dns/import/parse.ts';

const read = (text: string) => parseMasterFile(text, 'zona.es');
const summary = (text: string) =>
  read(text).records.map((r) => `${r.owner} ${r.ttl} ${r.type} ${r.rdata.map((w) => (w.quoted ? `"${w.text}"` : w.text)).join(' ')}`);

describe('the master-file reader', () => {
  it('reads TTLs with units, in any case, and refuses words that are not TTLs', () => {
    expect(readTtl('3600')).toBe(3600);
    expect(readTtl('1h30m')).toBe(5400);
    expect(readTtl('1W2D')).toBe(777600);
    expect(readTtl('1x')).toBeNull();
    expect(readTtl('h')).toBeNull();
  });

  it('qualifies @, relative names and blank owners against the origin, and takes TTL and class in either order', () => {
    const text = [
      '$ORIGIN zona.es.',
      '$TTL 600',
      '@ IN A 192.0.2.1',
      '  1h IN A 192.0.2.2',
      'www IN 300 CNAME @',
      '$ORIGIN sub.zona.es.',
      'x A 192.0.2.3',
      'abs.zona.es. A 192.0.2.4',
    ];
    expect(summary(text.join('\n'))).toEqual([
      'zona.es 600 A 192.0.2.1',
      'zona.es 3600 A 192.0.2.2',
      'www.zona.es 300 CNAME @',
      'x.sub.zona.es 600 A 192.0.2.3',
      'abs.zona.es 600 A 192.0.2.4',
    ]);
  });

  it('without $TTL, a record takes the last TTL given, and none at all is left to the provider', () => {
    expect(summary('a A 192.0.2.1\nb 900 A 192.0.2.2\nc A 192.0.2.3')).toEqual([
      'a.zona.es null A 192.0.2.1',
      'b.zona.es 900 A 192.0.2.2',
      'c.zona.es 900 A 192.0.2.3',
    ]);
  });

  it('joins lines inside parentheses, skips comments outside quotes and keeps ; inside them', () => {
    const { records } = read('t IN TXT ( "a;b" ; comment\n  "c" ) ; more\nu IN TXT "d"');
    expect(records.map((r) => [r.line, r.rdata.map((w) => w.text)])).toEqual([
      [1, ['a;b', 'c']],
      [3, ['d']],
    ]);
  });

  it('resolves \\" \\\\ and \\DDD escapes inside quotes to their bytes', () => {
    const [record] = read('t TXT "say \\"hi\\" \\\\ caf\\195\\169"').records;
    expect(record.rdata[0].bytes.toString('utf8')).toBe('say "hi" \\ café');
  });

  it('refuses, with the line, an unclosed parenthesis, a stray one, an unclosed quote, $INCLUDE, another class and a huge TTL', () => {
    const text = [
      'ok A 192.0.2.1',
      'b A 192.0.2.2 )',
      'c TXT "unclosed',
      '$INCLUDE x.zone',
      'd CH A 192.0.2.3',
      'e 9999999999 A 192.0.2.4',
      'f A 192.0.2.5',
      'a TXT ( "open"',
      '  "never closed"',
    ];
    const { records, refused } = read(text.join('\n'));
    expect(records.map((r) => r.owner)).toEqual(['ok.zona.es', 'f.zona.es']);
    expect(refused.map((r) => [r.line, r.key])).toEqual([
      [2, 'dns.import_syntax'],
      [3, 'dns.import_syntax'],
      [4, 'dns.import_directive'],
      [5, 'dns.import_class'],
      [6, 'dns.import_ttl'],
      [8, 'dns.import_syntax'],
    ]);
  });
});
