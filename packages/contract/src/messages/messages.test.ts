import { describe, expect, it } from 'vitest';
import { MESSAGES, translate } from './index.ts';

describe('server messages', () => {
  it('exist in es, en and ca with the same keys', () => {
    const keys = Object.keys(MESSAGES.es).sort();
    expect(Object.keys(MESSAGES.en).sort()).toEqual(keys);
    expect(Object.keys(MESSAGES.ca).sort()).toEqual(keys);
  });

  it('interpolate parameters and fall back to the key when unknown', () => {
    expect(translate('en', 'validation.too_long', { max: 10 })).toBe('Must have at most 10 characters');
    expect(translate('ca', 'no.such.key')).toBe('no.such.key');
  });
});
