import { DEFAULT_LANGUAGE, type Language, toLanguage } from '@atalaya/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { BOOT_TEXTS, merge, type Texts } from '../locales/boot.ts';

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

/** Adds a chunk's texts (the screens' ones come with the signed-in app, not with the sign-in page). */
export function addTexts(files: Texts[]) {
  if (!i18next.isInitialized) {
    pending.push(...files);
    return;
  }
  const texts = merge(files);
  for (const lng of ['es', 'en', 'ca'] as const) i18next.addResourceBundle(lng, 'translation', texts[lng], true, true);
}

export async function initI18n() {
  const lng = storedLanguage();
  document.documentElement.lang = lng;
  const texts = merge([...BOOT_TEXTS, ...pending]);
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: { ca: ['es'], default: ['es'] },
    resources: {
      es: { translation: texts.es },
      en: { translation: texts.en },
      ca: { translation: texts.ca },
    },
    keySeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}
