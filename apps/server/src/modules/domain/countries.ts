import { createRequire } from 'node:module';
import { LANGUAGES, type Language } from '@atalaya/contract';
import countries from 'i18n-iso-countries/index.js';

// Only the panel's three languages are registered: every locale of the package would cost memory.
const require = createRequire(import.meta.url);
for (const language of LANGUAGES) countries.registerLocale(require(`i18n-iso-countries/langs/${language}.json`));

const cache = new Map<Language, Record<string, string>>();

/** ISO 3166-1 alpha-2 codes and their names in the language, ordered by name in that language. */
export function countryNames(language: Language): Record<string, string> {
  let names = cache.get(language);
  if (!names) {
    const entries = Object.entries(countries.getNames(language, { select: 'official' }));
    entries.sort((a, b) => a[1].localeCompare(b[1], language));
    names = Object.fromEntries(entries);
    cache.set(language, names);
  }
  return names;
}

export const isCountry = (code: string) => code.length === 2 && countries.isValid(code);
export const countryName = (code: string, language: Language) => countries.getName(code, language) ?? code;
