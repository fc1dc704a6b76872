import i18next from 'i18next';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Texts } from '../locales/boot.ts';
import { addServerTexts, addTexts } from './i18n.ts';

const web: Texts = { es: { 'sites.app_unavailable': 'No disponible' }, en: { 'sites.app_unavailable': 'Unavailable' }, ca: {} };
const server: Texts = {
  es: { 'sites.app_unavailable': 'Esta aplicación no está disponible', 'sites.other': 'Otro' },
  en: { 'sites.app_unavailable': 'This application is not available', 'sites.other': 'Other' },
  ca: {},
};

describe("the server's areas' messages", () => {
  beforeEach(async () => {
    await i18next.init({ lng: 'es', resources: {}, keySeparator: false });
  });

  it("never replace the web's text for the same key when they arrive after it", () => {
    addTexts([web]);
    addServerTexts([server]);
    expect(i18next.t('sites.app_unavailable')).toBe('No disponible');
    expect(i18next.t('sites.other')).toBe('Otro');
  });

  it("give way to the web's text for the same key when they arrive before it", () => {
    addServerTexts([server]);
    addTexts([web]);
    expect(i18next.t('sites.app_unavailable')).toBe('No disponible');
    expect(i18next.getFixedT('en')('sites.app_unavailable')).toBe('Unavailable');
  });
});
