/**
 * The text types every schema of the contract builds its fields from. A single-line field never
 * holds a control character (C0, DEL, C1) or a Unicode line or paragraph separator: a NUL stored in
 * a name, or a CR/LF that reaches a mail header or a configuration file, is refused under the field
 * with `validation.control_characters`. Nor does it hold a bidirectional embedding, override or
 * isolate (U+202A–U+202E, U+2066–U+2069): a right-to-left override in a name turns the rest of the
 * line around wherever it is shown (the activity log, WHOIS data, a mail), so one text can pass for
 * another. Multi-line fields (messages, descriptions, pasted keys) keep tab, CR and LF and refuse
 * the other controls the same way; they keep the bidirectional marks, which text written in a
 * right-to-left script may legitimately carry across its lines.
 */
import { z } from 'zod';

const LINE_CONTROL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
// Any control but tab, LF and CR (a lookahead, so the pattern itself names no control character).
const TEXT_CONTROL = /(?![\t\n\r])[\p{Cc}\u2028\u2029]/u;

/** True when the text holds a character that has no place in one line of text. */
export const hasLineControl = (value: string) => LINE_CONTROL.test(value);
/** True when the text holds a control character other than tab, CR and LF. */
export const hasTextControl = (value: string) => TEXT_CONTROL.test(value);

export const CONTROL_CHARACTERS = 'validation.control_characters';

/** One line of text, trimmed, at most `max` characters; may be empty. */
export const singleLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { abort: true })
    .refine((v) => !hasLineControl(v), CONTROL_CHARACTERS);

/** One line of text, trimmed, 1 to `max` characters (`abort`: an empty field is "required", nothing else). */
export const requiredLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(max, { abort: true })
    .refine((v) => !hasLineControl(v), CONTROL_CHARACTERS);

/** Text that may span lines, trimmed, at most `max` characters; may be empty. */
export const multiLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { abort: true })
    .refine((v) => !hasTextControl(v), CONTROL_CHARACTERS);

/** Text that may span lines, trimmed, 1 to `max` characters. */
export const requiredMultiLine = (max: number) =>
  z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(max, { abort: true })
    .refine((v) => !hasTextControl(v), CONTROL_CHARACTERS);
