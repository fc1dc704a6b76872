import { describe, expect, it } from 'vitest';
import { fillLegal, LEGAL } from './texts.ts';

describe('the legal notice', () => {
  it('has the same sections in es, en and ca', () => {
    expect(LEGAL.en.sections).toHaveLength(LEGAL.es.sections.length);
    expect(LEGAL.ca.sections).toHaveLength(LEGAL.es.sections.length);
  });
  it('names Spanish law and the configured jurisdiction in every language', () => {
    for (const lang of ['es', 'en', 'ca'] as const) {
      const text = LEGAL[lang].sections.map((s) => fillLegal(s.body, 'Acme', 'Manacor')).join(' ');
      expect(text).toContain('Manacor');
      expect(text).toMatch(/español|Spanish|espanyola/);
    }
  });
});
