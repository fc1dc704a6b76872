import { DEFAULT_LANGUAGE, LANGUAGES, type Language, toLanguage } from '@atalaya/contract';
import { useMemo, useSyncExternalStore } from 'react';
import { merge, type Texts } from '../locales/boot.ts';
import type { StartupCalls } from './startupCalls.ts';
import { createTranslator, type TFunction } from './translator.ts';

export type { TFunction };

const readCookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** The language in the `_lang` cookie (kept 1 day), else Spanish. */
export const storedLanguage = (): Language => toLanguage(readCookie('_lang') ?? DEFAULT_LANGUAGE);

export function rememberLanguage(language: Language) {
  // biome-ignore lint/suspicious/noDocumentCookie: the `_lang` cookie; the Cookie Store API is missing from Firefox and Safari.
  document.cookie = `_lang=${language}; max-age=${24 * 3600}; path=/; samesite=strict`;
  document.documentElement.lang = language;
}

/** The panel's one translator; its language is the cookie's from start-up on (initI18n). */
const translator = createTranslator(DEFAULT_LANGUAGE);

/** Texts in the current language, for code outside React (toasts, error texts). */
export const t: TFunction = (key, options) => translator.fixedT(translator.language())(key, options);
export const currentLanguage = () => translator.language();

/** A component's texts: re-rendered, with a new `t`, when the language changes. */
export function useTranslation() {
  const language = useSyncExternalStore(translator.subscribe, translator.language);
  return useMemo(() => ({ t: translator.fixedT(language), i18n: { language, exists: translator.exists } }), [language]);
}

function add(files: Texts[], overwrite: boolean) {
  const texts = merge(files);
  for (const language of LANGUAGES) translator.add(language, texts[language], overwrite);
}

/** Adds a chunk's texts (the screens' ones come with the signed-in app, not with the sign-in page). */
export const addTexts = (files: Texts[]) => add(files, true);

/**
 * Adds the server's areas' messages (locales/areas.ts) without replacing a text already there:
 * the web's own texts reuse some of their keys with other words (the installer's "No disponible"
 * badge has the key of a whole sentence in the server's answers), and the web's must win
 * whichever of the two chunks arrives first (i18n.test.ts).
 */
export const addServerTexts = (files: Texts[]) => add(files, false);

type BootTexts = StartupCalls['texts'];
/** How to load start-up's texts of another language, and the languages whose texts are in. */
let bootTexts: BootTexts['load'] | undefined;
const loaded = new Set<string>();

/** Start-up's texts of a language join what chunks may have added before them, without replacing it. */
async function loadBootTexts(language: Language, catalogue: Promise<Record<string, string>>) {
  translator.add(language, await catalogue, false);
  loaded.add(language);
}

/**
 * Switches the language, first loading start-up's texts in it (each language is a chunk of its
 * own, lib/startupCalls.ts): the sign-in page downloads only the visitor's (docs/design.md#budgets).
 */
export async function switchLanguage(language: Language) {
  if (!loaded.has(language) && bootTexts) await loadBootTexts(language, bootTexts(language));
  translator.changeLanguage(language);
}

/** `texts`: start-up's texts as the entry asked for them, in the cookie's language. */
export async function initI18n(texts: BootTexts) {
  const language = storedLanguage();
  document.documentElement.lang = language;
  bootTexts = texts.load;
  // The entry read the same cookie: a mismatch would be a bug, but costs only a round trip.
  await loadBootTexts(language, texts.language === language ? texts.catalogue : texts.load(language));
  translator.changeLanguage(language);
}
