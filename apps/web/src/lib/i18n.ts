import { DEFAULT_LANGUAGE, type Language, toLanguage } from '@atalaya/contract';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { RESOURCES } from '../locales/index.ts';

const readCookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

/** The language in the `_lang` cookie (kept 1 day), else Spanish. */
export const storedLanguage = (): Language => toLanguage(readCookie('_lang') ?? DEFAULT_LANGUAGE);

export function rememberLanguage(language: Language) {
  // biome-ignore lint/suspicious/noDocumentCookie: the spec's `_lang` cookie; the Cookie Store API is missing from Firefox and Safari.
  document.cookie = `_lang=${language}; max-age=${24 * 3600}; path=/; samesite=strict`;
  document.documentElement.lang = language;
}

export async function initI18n() {
  const lng = storedLanguage();
  document.documentElement.lang = lng;
  await i18next.use(initReactI18next).init({
    lng,
    fallbackLng: { ca: ['es'], default: ['es'] },
    resources: {
      es: { translation: RESOURCES.es },
      en: { translation: RESOURCES.en },
      ca: { translation: RESOURCES.ca },
    },
    keySeparator: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return i18next;
}
