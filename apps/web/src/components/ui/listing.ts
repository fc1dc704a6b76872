/** Pure parts of the generic list: filtering and paging (docs/behaviour/service-area-dns.md#lists). */

/** Lower-cased, accent-free text, so 'Región' matches 'region'. */
export const normalise = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Indices of the rows whose haystack holds every word of the query. */
export function filterRows<T>(rows: readonly T[], haystacks: readonly string[], query: string): T[] {
  const words = normalise(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return rows as T[];
  const kept: T[] = [];
  for (let i = 0; i < rows.length; i++) {
    const hay = haystacks[i];
    if (words.every((word) => hay.includes(word))) kept.push(rows[i]);
  }
  return kept;
}

export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(total / size));

/** The rows of a 1-based page; a page past the end falls back to the last one. */
export function pageOf<T>(rows: readonly T[], page: number, size: number): T[] {
  const last = pageCount(rows.length, size);
  const current = Math.min(Math.max(1, page), last);
  return rows.slice((current - 1) * size, current * size);
}
