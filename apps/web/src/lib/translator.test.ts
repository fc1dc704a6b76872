import { describe, expect, it, vi } from 'vitest';
import { createTranslator } from './translator.ts';

function translator() {
  const texts = createTranslator('es');
  texts.add(
    'es',
    { greeting: 'Hola {{name}}', days_one: '{{count}} día', days_other: '{{count}} días', only_es: 'Solo en castellano' },
    true,
  );
  texts.add('en', { greeting: 'Hello {{name}}', days_one: '{{count}} day', days_other: '{{count}} days' }, true);
  texts.add('ca', { greeting: 'Hola {{name}}', days_one: '{{count}} dia', days_other: '{{count}} dies' }, true);
  return texts;
}

describe('the web translator', () => {
  it('fills each placeholder with its value, and leaves one without a value as written', () => {
    const t = translator().fixedT('en');
    expect(t('greeting', { name: 'Ana' })).toBe('Hello Ana');
    expect(t('greeting')).toBe('Hello {{name}}');
    expect(t('greeting', { name: 0 })).toBe('Hello 0');
  });

  it("picks the plural form by the language's rules, and the other form for a category without a text", () => {
    const texts = translator();
    expect(texts.fixedT('es')('days', { count: 1 })).toBe('1 día');
    expect(texts.fixedT('es')('days', { count: 0 })).toBe('0 días');
    expect(texts.fixedT('en')('days', { count: 2 })).toBe('2 days');
    expect(texts.fixedT('ca')('days', { count: 1 })).toBe('1 dia');
    // Spanish says "many" of a million: there is no days_many, so days_other.
    expect(new Intl.PluralRules('es').select(1_000_000)).toBe('many');
    expect(texts.fixedT('es')('days', { count: 1_000_000 })).toBe('1000000 días');
  });

  it("falls back to Spanish's text, then to the default value, then to the key", () => {
    const t = translator().fixedT('ca');
    expect(t('only_es')).toBe('Solo en castellano');
    expect(t('nowhere', { defaultValue: 'dns' })).toBe('dns');
    expect(t('nowhere')).toBe('nowhere');
  });

  it('keeps a text already there when told not to overwrite, and replaces it otherwise', () => {
    const texts = translator();
    texts.add('en', { greeting: 'Hi' }, false);
    expect(texts.fixedT('en')('greeting', { name: 'Ana' })).toBe('Hello Ana');
    texts.add('en', { greeting: 'Hi' }, true);
    expect(texts.fixedT('en')('greeting')).toBe('Hi');
  });

  it('tells its listeners of a language change, and gives a new function for the new language only', () => {
    const texts = translator();
    const listener = vi.fn();
    texts.subscribe(listener);
    const spanish = texts.fixedT('es');
    expect(texts.fixedT('es')).toBe(spanish);
    texts.changeLanguage('es');
    expect(listener).not.toHaveBeenCalled();
    texts.changeLanguage('en');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(texts.language()).toBe('en');
    expect(texts.fixedT('en')).not.toBe(spanish);
    expect(texts.exists('only_es')).toBe(true);
    expect(texts.exists('nowhere')).toBe(false);
  });
});
