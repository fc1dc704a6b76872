import { DEFAULT_LANGUAGE, type Language } from '@atalaya/contract';

type Catalogue = Map<string, string>;

/** Values for a text's `{{name}}` placeholders; `count` also picks the plural form. */
export interface TOptions {
  count?: number;
  /** What to show when no language has the key (otherwise the key itself). */
  defaultValue?: string;
  [name: string]: unknown;
}

export type TFunction = (key: string, options?: TOptions) => string;

/** A language's value, made on first use. */
function remembered<V>(values: Map<Language, V>, language: Language, make: () => V): V {
  const known = values.get(language);
  if (known !== undefined) return known;
  const made = make();
  values.set(language, made);
  return made;
}

/** The language every text exists in: another language's missing text falls back to it. */
const FALLBACK: Language = DEFAULT_LANGUAGE;

/**
 * The web's texts (decision 011): one catalogue per language, `{{name}}` placeholders, and plural
 * forms as `key_one`/`key_other`, picked by the language's `Intl.PluralRules`; a plural category
 * without a text of its own (Spanish's `many`, for a million) takes `_other`, and a language
 * without a text takes Spanish's. This is what the panel used of i18next, whose whole library
 * every first load had to download.
 */
export function createTranslator(initial: Language) {
  const catalogues: Record<Language, Catalogue> = { es: new Map(), en: new Map(), ca: new Map() };
  const plurals = new Map<Language, Intl.PluralRules>();
  const fixed = new Map<Language, TFunction>();
  const listeners = new Set<() => void>();
  let current = initial;

  const lookup = (language: Language, key: string): string | undefined =>
    catalogues[language].get(key) ?? (language === FALLBACK ? undefined : catalogues[FALLBACK].get(key));

  const pluralOf = (language: Language) => remembered(plurals, language, () => new Intl.PluralRules(language));

  const translate = (language: Language, key: string, options: TOptions = {}) => {
    const { count } = options;
    const plural =
      typeof count === 'number'
        ? (lookup(language, `${key}_${pluralOf(language).select(count)}`) ?? lookup(language, `${key}_other`))
        : undefined;
    const text = plural ?? lookup(language, key) ?? options.defaultValue ?? key;
    // A placeholder without a value stays as written, so a missing value shows instead of a gap.
    return text.includes('{{')
      ? text.replace(/\{\{(\w+)\}\}/g, (match, name: string) => (options[name] === undefined ? match : String(options[name])))
      : text;
  };

  return {
    language: () => current,
    /** The texts of one language, as a function that stays the same until the language changes (a hook's dependency). */
    fixedT: (language: Language): TFunction =>
      remembered(fixed, language, () => (key: string, options?: TOptions) => translate(language, key, options)),
    exists: (key: string) => lookup(current, key) !== undefined,
    /** Adds texts to a language; `overwrite: false` keeps a text already there. */
    add(language: Language, texts: Record<string, string>, overwrite: boolean) {
      const catalogue = catalogues[language];
      for (const [key, text] of Object.entries(texts)) if (overwrite || !catalogue.has(key)) catalogue.set(key, text);
    },
    changeLanguage(language: Language) {
      if (language === current) return;
      current = language;
      for (const listener of listeners) listener();
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
