import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/** The zone files of the import tests (zones/), for the zone zona.es. */
export const zoneFile = (name: string) => readFileSync(path.join(import.meta.dirname, 'zones', name), 'utf8');

/**
 * named-checkzone -D's reading of a zone text: one line per record, the SOA and the given types
 * left out, TXT character-strings joined (the panel keeps a TXT record as one text), sorted.
 */
export async function bindReading(zone: string, text: string, without: string[] = []): Promise<string[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-import-'));
  try {
    writeFileSync(path.join(dir, 'zone.db'), text);
    const { stdout } = await promisify(execFile)('named-checkzone', ['-D', '-o', '-', zone, path.join(dir, 'zone.db')]);
    return stdout
      .split('\n')
      .filter((l) => /\sIN\s/.test(l))
      .map((l) => {
        const [name, ttl, , type, ...rdata] = l.trim().split(/\s+/);
        const data = type === 'TXT' ? [...rdata.join(' ').matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]).join('') : rdata.join(' ');
        return { type, line: `${name} ${ttl} ${type} ${data}` };
      })
      .filter((r) => r.type !== 'SOA' && !without.includes(r.type))
      .map((r) => r.line)
      .sort();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** An export without its SOA line, whose serial moves with every change. */
export const withoutSoa = (text: string) =>
  text
    .split('\n')
    .filter((l) => !/ IN SOA /.test(l))
    .join('\n');
