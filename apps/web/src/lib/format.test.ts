import { describe, expect, it } from 'vitest';
import { formatDate, isExpired } from './format.ts';

describe('expiry and dates', () => {
  it('is expired when the expiry is before now', () => {
    expect(isExpired(1000, 1_000_001)).toBe(true);
    expect(isExpired(1000, 1_000_000)).toBe(false);
    expect(isExpired(2000, 1_000_000)).toBe(false);
  });
  it('formats a date in each language', () => {
    const ts = Date.UTC(2027, 5, 30) / 1000;
    expect(formatDate(ts, 'en')).toContain('2027');
    expect(formatDate(ts, 'es')).toMatch(/jun/);
    expect(formatDate(ts, 'ca')).toMatch(/juny|jun/);
  });
});
