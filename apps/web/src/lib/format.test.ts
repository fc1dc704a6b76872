import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDateTime, isExpired } from './format.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

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
  it('makes one formatter per language and style, not one per date (each costs about a millisecond on a phone)', () => {
    const made = vi.spyOn(Intl, 'DateTimeFormat');
    const ts = Date.UTC(2027, 5, 30, 12) / 1000;
    const dates = Array.from({ length: 20 }, (_, day) => formatDate(ts + day * 86_400, 'ca'));
    const times = Array.from({ length: 20 }, (_, day) => formatDateTime(ts + day * 86_400, 'ca'));
    formatDate(ts, 'en');
    expect(made.mock.calls.length).toBeLessThanOrEqual(3);
    // The same text as a formatter made for each date.
    expect(dates[3]).toBe(
      new Intl.DateTimeFormat('ca', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date((ts + 3 * 86_400) * 1000)),
    );
    expect(times[3]).toBe(
      new Intl.DateTimeFormat('ca', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date((ts + 3 * 86_400) * 1000)),
    );
  });
});
