import { type ActivityChange, REDACTED } from '@atalaya/contract';

/**
 * Field names that hold a secret: passwords, auth (transfer) codes, keys, tokens, captcha answers.
 * Matched on the name so that a new form field called `newPassword` is redacted without anyone
 * remembering to add it; a harmless field caught by the pattern only loses its value in the log.
 */
const SECRET = /pass(word|wd)?|secret|auth_?code|token|private|captcha|(^|cert|api|transfer|ssh|sign)_?key$|otp/i;

export const isSecretField = (field: string) => SECRET.test(field);

/** Longest value the log keeps of one field: a before → after, not a copy of the data. */
const MAX_VALUE = 200;

/** One field's value as the log writes it: scalars as text, lists joined, anything else left out. */
export function logValue(value: unknown): string | null | undefined {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') return value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => ['string', 'number', 'boolean'].includes(typeof v))) return logValue(value.join(', '));
  return undefined;
}

/** The changes with every secret's values replaced by the redaction mark (that it changed stays visible). */
export function redact(changes: readonly ActivityChange[]): ActivityChange[] {
  return changes.map((c) =>
    isSecretField(c.field) ? { field: c.field, before: c.before === null ? null : REDACTED, after: c.after === null ? null : REDACTED } : c,
  );
}

type Fields = Record<string, unknown> | null | undefined;

/**
 * The fields that differ between two views of a thing, before → after; a thing created has no
 * before, a thing deleted no after. Values that are not scalars (files, nested objects) are skipped.
 * `keep` names the fields that say which thing it is (an account's name): kept even when unchanged.
 */
export function diff(before: Fields, after: Fields, keep: readonly string[] = []): ActivityChange[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const changes: ActivityChange[] = [];
  for (const field of keys) {
    const b = logValue(before?.[field]);
    const a = logValue(after?.[field]);
    if (b === undefined || a === undefined || (b === a && !keep.includes(field))) continue;
    changes.push({ field, before: b, after: a });
  }
  return redact(changes);
}
