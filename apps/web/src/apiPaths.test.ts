import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ALL_ENDPOINTS } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));
/** The entry's start-up calls are copies on purpose (they import nothing); their own test checks them against the table. */
const EXEMPT = [path.join('lib', 'startupCalls.ts')];

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [path.relative(SRC, full)] : [];
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/**
 * A path of the table as code would spell it in a string: from its start, parameters as `${…}`. Paths
 * of one segment ('contact/', 'ws') are left out: the SPA's own routes and the socket's scheme share
 * those words.
 */
const spelled = (apiPath: string) => new RegExp(`['\`]/?${apiPath.slice(1).split(/:\w+/).map(escapeRegExp).join('\\$\\{[^}]+\\}')}['\`]`);
const checked = ALL_ENDPOINTS.filter((e) => e.path.split('/').filter(Boolean).length > 1);

describe('the web calls the API through the endpoint table', () => {
  const files = sources().filter((f) => !EXEMPT.includes(f));

  it('writes no API path by hand, nor the API base', () => {
    const patterns = checked.map((e) => spelled(e.path));
    const found = files.flatMap((file) => {
      const text = readFileSync(path.join(SRC, file), 'utf8');
      const hits = patterns.filter((p) => p.test(text)).map((p) => `${file}: ${p.source}`);
      if (/['"`]\/p247|API_BASE/.test(text) && file !== path.join('lib', 'api.ts')) hits.push(`${file}: the API base`);
      return hits;
    });
    expect(found).toEqual([]);
  });

  it('would find a path written by hand', () => {
    const dnsList = spelled('/service/:id/dns/list/');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text of a path written by hand
    expect(dnsList.test('get(`service/${serviceId}/dns/list/`)')).toBe(true);
    expect(spelled('/user/info/').test("post('user/info/')")).toBe(true);
    expect(dnsList.test("path: 'dns/'")).toBe(false);
    expect(checked.length).toBeGreaterThan(70);
  });
});
