/**
 * Form bodies arrive URL-encoded or multipart. A field named `dns[]` is always an array under `dns`;
 * any other repeated field keeps its last value, so a schema never meets an unexpected array.
 */
export function normaliseFields(entries: Iterable<[string, string]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [rawKey, value] of entries) {
    if (rawKey === '__proto__' || rawKey === 'constructor' || rawKey === 'prototype') continue;
    if (rawKey.endsWith('[]')) {
      const key = rawKey.slice(0, -2);
      const list = Array.isArray(out[key]) ? (out[key] as string[]) : [];
      list.push(value);
      out[key] = list;
    } else {
      out[rawKey] = value;
    }
  }
  return out;
}

export const parseUrlEncoded = (body: string) => normaliseFields(new URLSearchParams(body));
