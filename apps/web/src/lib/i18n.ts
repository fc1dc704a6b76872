import { DEFAULT_LANGUAGE, type Language, toLanguage } from '@atalaya/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { merge, type Texts } from '../locales/boot.ts';
import type { StartupCalls } from './startupCalls.ts';

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

/** Texts registered before start-up finished wait here and join the first catalogue. */
const pending: Texts[] = [];

/** Registers texts now, or with the first catalogue when start-up has not finished. */
function add(files: Texts[], overwrite: boolean) {
  if (!i18next.isInitialized) {
    // Waiting texts join in order, each over the ones before it: those that must not overwrite go first.
    if (overwrite) pending.push(...files);
    else pending.unshift(...files);
    return;
  }
  const texts = merge(files);
  for (const lng of ['es', 'en', 'ca'] as const) i18next.addResourceBundle(lng, 'translation', texts[lng], true, overwrite);
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

/**
 * Switches the language, first loading start-up's texts in it (each language is a chunk of its
 * own, lib/startupCalls.ts): the sign-in page downloads only the visitor's (docs/design.md#budgets).
 */
export async function switchLanguage(language: Language) {
  if (!loaded.has(language) && bootTexts) {
    i18next.addResourceBundle(language, 'translation', await bootTexts(language), true, true);
    loaded.add(language);
  }
  await i18next.changeLanguage(language);
}

/** `texts`: start-up's texts as the entry asked for them, in the cookie's language. */
export async function initI18n(texts: BootTexts) {
  const lng = storedLanguage();
  document.documentElement.lang = lng;
  bootTexts = texts.load;
  // The entry read the same cookie: a mismatch would be a bug, but costs only a round trip.
  const boot = await (texts.language === lng ? texts.catalogue : texts.load(lng));
  loaded.add(lng);
  const later = merge(pending);
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: { ca: ['es'], default: ['es'] },
    resources: {
      es: { translation: later.es },
      en: { translation: later.en },
      ca: { translation: later.ca },
      [lng]: { translation: { ...boot, ...later[lng] } },
    },
    keySeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}
