import type { z } from 'zod';

/**
 * Edits (insert, delete, change, swap of two neighbours) that turn one word into the other, case
 * aside: a misspelt key is usually one or two away from the key meant.
 */
export function editDistance(from: string, to: string): number {
  const a = from.toLowerCase();
  const b = to.toLowerCase();
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const change = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + change);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** The known word nearest to `word`, when it is near enough to be the one meant (a third of its letters, at least two, never all). */
export function nearest(word: string, known: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (!best || distance < best.distance) best = { word: candidate, distance };
  }
  const allowed = Math.min(Math.max(2, Math.floor(word.length / 3)), word.length - 1);
  return best && best.distance <= allowed ? best.word : undefined;
}

/** `did you mean <prefix><nearest>?`, else the words there are to choose from. */
export function suggestion(word: string, known: readonly string[], prefix = '') {
  const near = nearest(word, known);
  return near === undefined ? `known: ${known.join(', ')}` : `did you mean ${prefix}${near}?`;
}

type Def = {
  type: string;
  innerType?: z.ZodType;
  in?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
};
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The schema itself under its defaults, optionals and transforms. */
function unwrap(schema: z.ZodType): z.ZodType {
  const def = defOf(schema);
  if (def.innerType) return unwrap(def.innerType);
  if (def.type === 'pipe' && def.in) return unwrap(def.in);
  return schema;
}

/** The keys the object schema at `path` (through objects, arrays and records) declares. */
export function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let node = unwrap(schema);
  for (const step of path) {
    const def = defOf(node);
    const next = def.type === 'object' ? def.shape?.[String(step)] : def.type === 'array' ? def.element : def.valueType;
    if (!next) return [];
    node = unwrap(next);
  }
  const def = defOf(node);
  return def.type === 'object' ? Object.keys(def.shape ?? {}) : [];
}

/**
 * One entry per key of a strict object's `unrecognized_keys` issue: the key's path (relative to
 * `schema`) and a message naming the nearest key that object knows, by its full dotted path
 * (`prefix` is where `schema` sits in the whole configuration).
 */
export function unknownKeys(schema: z.ZodType, issue: z.core.$ZodIssueUnrecognizedKeys, prefix: readonly PropertyKey[] = []) {
  const known = keysAt(schema, issue.path);
  const parent = [...prefix, ...issue.path].map(String).join('.');
  return issue.keys.map((key) => ({
    path: [...issue.path, key],
    message: `unknown key (${suggestion(key, known, parent ? `${parent}.` : '')})`,
  }));
}
