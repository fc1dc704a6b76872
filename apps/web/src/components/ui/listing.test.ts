import { describe, expect, it } from 'vitest';
import { filterRows, normalise, pageCount, pageOf } from './listing.ts';

const rows = Array.from({ length: 25 }, (_, i) => `dominio-${i + 1}.es`);
const hay = rows.map(normalise);

describe('the generic list', () => {
  it('keeps every row for an empty filter', () => {
    expect(filterRows(rows, hay, '  ')).toHaveLength(25);
  });
  it('filters case- and accent-insensitively, every word must match', () => {
    expect(filterRows(['Región.es', 'otro.es'], ['Región.es', 'otro.es'].map(normalise), 'REGION')).toEqual(['Región.es']);
    expect(filterRows(rows, hay, 'dominio 2')).toContain('dominio-2.es');
    expect(filterRows(rows, hay, 'dominio-25')).toEqual(['dominio-25.es']);
  });
  it('pages by 10 and clamps a page past the end', () => {
    expect(pageCount(25, 10)).toBe(3);
    expect(pageCount(0, 10)).toBe(1);
    expect(pageOf(rows, 3, 10)).toEqual(rows.slice(20));
    expect(pageOf(rows, 9, 10)).toEqual(rows.slice(20));
  });
});
