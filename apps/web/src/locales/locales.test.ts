import { describe, expect, it } from 'vitest';
import { RESOURCES } from './index.ts';

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
});
