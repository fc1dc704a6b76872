import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MESSAGES } from '@atalaya/contract';
import { describe, expect, it } from 'vitest';
import { activity } from './activity.ts';
import { AREA_TEXTS } from './areas.ts';
import { BOOT_TEXTS, merge } from './boot.ts';
import { FEATURE_TEXTS } from './index.ts';
import { SECOND_STEP_TEXTS } from './secondStep.ts';
import { tokens } from './tokens.ts';

const RESOURCES = merge([...BOOT_TEXTS, ...SECOND_STEP_TEXTS, ...AREA_TEXTS, ...FEATURE_TEXTS, tokens, activity]);

const SRC = path.resolve(import.meta.dirname, '..');
/** Where the screens' texts may be used: the item pages, which load them (app/router.tsx). */
const ITEM_SCREENS = [
  'features/domain/',
  'features/mail/',
  'features/service/',
  'features/sites/',
  'features/dns/',
  'features/backups/',
  'components/hosting/',
];

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'locales' ? [] : sources(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });

/** Where outside `loaders` (folders or files under src/) a text of one of `prefixes` is used, as `file: prefix.`. */
const usedOutside = (prefixes: string[], loaders: string[]) =>
  sources(SRC)
    .filter((file) => !loaders.some((where) => path.relative(SRC, file).startsWith(where)))
    .flatMap((file) =>
      prefixes
        .filter((prefix) => new RegExp(`['"\`]${prefix}\\.`).test(readFileSync(file, 'utf8')))
        .map((p) => `${path.relative(SRC, file)}: ${p}.`),
    );

describe('web texts', () => {
  it('exist in es, en and ca with the same keys', () => {
    const keys = Object.keys(RESOURCES.es).sort();
    expect(Object.keys(RESOURCES.en).sort()).toEqual(keys);
    expect(Object.keys(RESOURCES.ca).sort()).toEqual(keys);
  });
  it('are never empty', () => {
    for (const lang of ['es', 'en', 'ca'] as const) {
      for (const [key, text] of Object.entries(RESOURCES[lang])) expect(text, `${lang} ${key}`).not.toBe('');
    }
  });
  it('of the screens are used only by the item pages, which load them (elsewhere they would show as keys)', () => {
    const keys = Object.keys(merge(FEATURE_TEXTS).es);
    const bootKeys = new Set(Object.keys(merge(BOOT_TEXTS).es));
    // A key's prefix catches keys built at run time (`hosting.state_${state}`) too.
    const prefixes = [...new Set(keys.map((key) => key.split('.')[0]))].filter(
      (prefix) => ![...bootKeys].some((key) => key.startsWith(`${prefix}.`)),
    );
    const exact = keys.filter((key) => !prefixes.includes(key.split('.')[0]));
    const misplaced = sources(SRC)
      .filter((file) => !ITEM_SCREENS.some((dir) => path.relative(SRC, file).startsWith(dir)))
      .flatMap((file) => {
        const code = readFileSync(file, 'utf8');
        const used = [...prefixes.map((prefix) => `${prefix}.`), ...exact].filter((text) =>
          new RegExp(`['"\`]${text.replaceAll('.', '\\.')}`).test(code),
        );
        return used.map((text) => `${path.relative(SRC, file)}: ${text}`);
      });
    expect(prefixes.length).toBeGreaterThan(0);
    expect(misplaced).toEqual([]);
  });

  it("of the areas (the server's messages) are used only by the item pages and the Activity page, whose routes load them", () => {
    const bootKeys = Object.keys(merge(BOOT_TEXTS).es);
    // A prefix start-up also has (none today) could not be told apart by this check.
    const prefixes = [...new Set(Object.keys(merge(AREA_TEXTS).es).map((key) => key.split('.')[0]))].filter(
      (prefix) => !bootKeys.some((key) => key.startsWith(`${prefix}.`)),
    );
    expect(prefixes.sort()).toEqual(['activity', 'backups', 'dns', 'domain', 'expiry', 'mail', 'operator', 'service', 'sites']);
    expect(usedOutside(prefixes, [...ITEM_SCREENS, 'features/activity/'])).toEqual([]);
  });

  it("hold the server's whole catalogue between start-up, the second factors' and the areas' texts (a new area's messages must join one)", () => {
    const loaded = merge([...BOOT_TEXTS, ...SECOND_STEP_TEXTS, ...AREA_TEXTS]);
    for (const lang of ['es', 'en', 'ca'] as const) {
      const missing = Object.keys(MESSAGES[lang]).filter((key) => loaded[lang][key] !== MESSAGES[lang][key]);
      expect(missing, lang).toEqual([]);
    }
  });
  it('of the second step and the areas are not used by the rest of the sign-in page, which starts without them', () => {
    const startKeys = Object.keys(merge(BOOT_TEXTS).es);
    const later = [...new Set(Object.keys(merge([...SECOND_STEP_TEXTS, ...AREA_TEXTS]).es).map((key) => key.split('.')[0]))].filter(
      (prefix) => !startKeys.some((key) => key.startsWith(`${prefix}.`)),
    );
    const signIn = sources(path.join(SRC, 'features/session')).filter((file) => !file.endsWith('SecondStepForm.tsx'));
    const used = signIn.flatMap((file) =>
      later
        .filter((prefix) => new RegExp(`['"\`]${prefix}\\.`).test(readFileSync(file, 'utf8')))
        .map((p) => `${path.relative(SRC, file)}: ${p}.`),
    );
    expect(later).toContain('factors');
    expect(used).toEqual([]);
  });
  it('of the second factors are used only by Preferences and the second step, which load them', () => {
    const elsewhere = Object.keys(merge([...BOOT_TEXTS, ...AREA_TEXTS]).es);
    const prefixes = [...new Set(Object.keys(merge(SECOND_STEP_TEXTS).es).map((key) => key.split('.')[0]))].filter(
      (prefix) => !elsewhere.some((key) => key.startsWith(`${prefix}.`)),
    );
    expect(prefixes).toEqual(['factors']);
    expect(usedOutside(prefixes, ['features/preferences/', 'features/session/components/SecondStepForm.tsx'])).toEqual([]);
  });
});
