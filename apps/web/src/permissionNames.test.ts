import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AREAS } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';

const SRC = path.dirname(fileURLToPath(import.meta.url));

/** Every source file of the web app (tests aside), relative to src/: the shell, the screens, their parts and lib/. */
function webSources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return webSources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path.relative(SRC, full)] : [];
  });
}

/**
 * Two areas are also plain words of the web: `domain` and `service` start query keys, name the
 * lists' kinds and a form field. They count as areas where a permission reads them: an argument of
 * a permission function, an `area`-like property or a value typed `Area`. Every other area name
 * counts wherever it is quoted.
 */
const WORDS = new Set<string>(['domain', 'service']);
const quoted = (name: string) => new RegExp(`(['"\`])${name}\\1`);
const PERMISSION_PLACES = [
  /\b(?:canSee|canAct|canSeeAny|canCall|allowsCall|seesCall|narrowTo|check)\s*\([^()]*\)/g,
  /\b(?:area|areas|anyOf|alsoWrite|tokenArea)\s*[:=]\s*[^,;}\n]*/g,
  /\bArea\b[^;\n]*/g,
];

/** The area names a text quotes: what a screen would hand a permission check or a mutation itself. */
function areasNamedIn(text: string): string[] {
  const places = PERMISSION_PLACES.flatMap((pattern) => text.match(pattern) ?? []);
  return AREAS.filter((area) => (WORDS.has(area) ? places.some((place) => quoted(area).test(place)) : quoted(area).test(text)));
}

describe('the permission is named once, in the contract', () => {
  const files = webSources();

  it('finds the web sources it checks', () => {
    for (const dir of ['app', 'components', 'features', 'lib']) expect(files.some((file) => file.startsWith(dir + path.sep))).toBe(true);
    expect(files).toContain(path.join('components', 'ui', 'useFormMutation.ts'));
    expect(files).toContain(path.join('lib', 'permissions.ts'));
  });

  it('names no permission area in a web source file: each check reads the areas and level from the call’s endpoint entry', () => {
    // A screen names the call (endpoints.<group>.<key>); an anyOf call is narrowed by the contract's
    // table (TOGGLE_AREA), a screen's area is the contract's SCREEN_AREA.
    const found = files.flatMap((file) => areasNamedIn(readFileSync(path.join(SRC, file), 'utf8')).map((area) => `${file}: '${area}'`));
    expect(found).toEqual([]);
  });

  it('would report an area a screen names, and not a query key, a list kind or a form field', () => {
    expect(areasNamedIn("permission: { check, areas: 'service_ftp' },")).toEqual(['service_ftp']);
    expect(areasNamedIn('<ChangePasswordDialog area="servicemail_accounts" />')).toEqual(['servicemail_accounts']);
    expect(areasNamedIn("const ACTIONS = [{ toggle: 'block', area: 'domain_others' }];")).toEqual(['domain_others']);
    expect(areasNamedIn("if (canAct(map, 'domain')) return '/admin/';")).toEqual(['domain']);
    expect(areasNamedIn("{permissions.canSee('service') && <Card />}")).toEqual(['service']);
    expect(areasNamedIn("permission: { check, areas: 'service' },")).toEqual(['service']);
    expect(areasNamedIn("const mine: Area = 'domain';")).toEqual(['domain']);
    expect(areasNamedIn("export const domainKey = (id: number) => ['domain', id] as const;")).toEqual([]);
    expect(areasNamedIn("const list = (kind: 'domain' | 'service' | 'mail') => load(kind);")).toEqual([]);
    expect(areasNamedIn("<TextInput {...input('domain')} />")).toEqual([]);
    expect(areasNamedIn('permission: { check, call: endpoints.service.ftpDelete },')).toEqual([]);
  });
});
