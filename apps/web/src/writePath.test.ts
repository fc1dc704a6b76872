import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));
/** The one place allowed to make a mutation and call the permission check: the hook itself. */
const HOOK = path.join('components', 'ui', 'useFormMutation.ts');

/** Every source file of the screens (features/) and their parts (components/), tests and the hook aside, relative to src/. */
function screenSources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    const relative = path.relative(SRC, full);
    if (entry.isDirectory()) return dir === SRC && !['features', 'components'].includes(entry.name) ? [] : screenSources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && relative !== HOOK && dir !== SRC ? [relative] : [];
  });
}

/**
 * The ways around the one write path a screen could take: a mutation of its own (its failure,
 * permission re-check and reloads would be its own), a request of its own (an expired session would
 * not open the login modal, the envelope would not be read), a permission re-check of its own.
 */
const BYPASSES: [string, RegExp][] = [
  ['useMutation', /\buseMutation\b/],
  ['fetch(', /\bfetch\s*\(/],
  ['XMLHttpRequest', /\bXMLHttpRequest\b/],
  ['a permission check( of its own', /\bcheck\s*\(/],
];

/** The bypasses a text holds, comments included: a comment that names one is rewritten. */
const bypassesIn = (text: string) => BYPASSES.filter(([, pattern]) => pattern.test(text)).map(([name]) => name);

describe('the one write path of the web app', () => {
  const files = screenSources();

  it('finds the screens it checks', () => {
    for (const area of ['domain', 'service', 'sites', 'dns', 'mail', 'session']) {
      expect(files.some((file) => file.startsWith(path.join('features', area)))).toBe(true);
    }
    expect(files).toContain(path.join('components', 'hosting', 'StateBadge.tsx'));
    expect(files).not.toContain(HOOK);
    expect(files.some((file) => file.startsWith('lib'))).toBe(false);
  });

  it('keeps every screen and its parts to the one mutation hook and the API client: no useMutation, fetch( or check( of their own', () => {
    const found = files.flatMap((file) => bypassesIn(readFileSync(path.join(SRC, file), 'utf8')).map((name) => `${file}: ${name}`));
    expect(found).toEqual([]);
  });

  it('would report each way around it, and not the hook, the client or a query', () => {
    expect(bypassesIn("import { useMutation } from '@tanstack/react-query';")).toEqual(['useMutation']);
    expect(bypassesIn('const r = await fetch(url, init);')).toEqual(['fetch(']);
    expect(bypassesIn('window.fetch (url)')).toEqual(['fetch(']);
    expect(bypassesIn('new XMLHttpRequest()')).toEqual(['XMLHttpRequest']);
    expect(bypassesIn("if (!(await check(['service_ftp']))) return;")).toEqual(['a permission check( of its own']);
    expect(bypassesIn("permissions.check('service_dnszone').then(open)")).toEqual(['a permission check( of its own']);
    expect(bypassesIn('const m = useFormMutation({ permission: { check, areas: "service" }, send });')).toEqual([]);
    expect(bypassesIn('await client.fetchQuery(q); void refetch(); prefetch(x);')).toEqual([]);
  });
});
