import { describe, expect, it } from 'vitest';
import type { Texts } from '../locales/boot.ts';
import { addServerTexts, addTexts, switchLanguage, t } from './i18n.ts';

const web: Texts = { es: { 'sites.app_unavailable': 'No disponible' }, en: { 'sites.app_unavailable': 'Unavailable' }, ca: {} };
const server: Texts = {
  es: { 'sites.app_unavailable': 'Esta aplicación no está disponible', 'sites.other': 'Otro' },
  en: { 'sites.app_unavailable': 'This application is not available', 'sites.other': 'Other' },
  ca: {},
};

// One module, one translator: each case uses keys of its own.
const rename = (texts: Texts, suffix: string): Texts => ({
  es: Object.fromEntries(Object.entries(texts.es).map(([key, text]) => [key + suffix, text])),
  en: Object.fromEntries(Object.entries(texts.en).map(([key, text]) => [key + suffix, text])),
  ca: {},
});

describe("the server's areas' messages", () => {
  it("never replace the web's text for the same key when they arrive after it", () => {
    addTexts([rename(web, '.1')]);
    addServerTexts([rename(server, '.1')]);
    expect(t('sites.app_unavailable.1')).toBe('No disponible');
    expect(t('sites.other.1')).toBe('Otro');
  });

  it("give way to the web's text for the same key when they arrive before it", async () => {
    addServerTexts([rename(server, '.2')]);
    addTexts([rename(web, '.2')]);
    expect(t('sites.app_unavailable.2')).toBe('No disponible');
    await switchLanguage('en');
    expect(t('sites.app_unavailable.2')).toBe('Unavailable');
    await switchLanguage('es');
  });
});
