import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from './index.ts';
import { CONTROL_CHARACTERS, multiLine, requiredLine, singleLine } from './strings.ts';

/** The bidirectional embeddings, overrides (U+202A–U+202E) and isolates (U+2066–U+2069). */
const BIDI_CONTROLS = [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].map((c) => String.fromCodePoint(c));

/** Fields that are not text to keep: secrets only hashed or compared, a token decoded and checked, DNS record data (decision 007). */
const NOT_TEXT = new Set(['password', 'actualPassword', 'recaptcha_response', 'value']);
/** Text that may span lines (`zone`: a DNS master file): tab, CR and LF are kept, the other controls refused. */
const MULTI_LINE = new Set(['contents', 'iframeDescription', 'digest', 'cert', 'certkey', 'certchain', 'zone', 'autoreplyText']);

/** Every field a client sends: the body and query of every call of the endpoint table, as [call, field, field schema]. */
function fields(): [string, string, z.ZodType][] {
  const out: [string, string, z.ZodType][] = [];
  for (const [area, calls] of Object.entries(contract.endpoints)) {
    for (const [name, call] of Object.entries(calls as Record<string, contract.Endpoint>)) {
      for (const value of [call.body, call.query]) {
        if (!value) continue;
        const def = (value as unknown as { _zod: { def: { type: string; options?: z.ZodType[] } } })._zod.def;
        const objects = def.type === 'union' ? (def.options ?? []) : [value];
        for (const object of objects) {
          const shape = (object as unknown as { shape?: Record<string, z.ZodType> }).shape;
          if (shape) for (const [key, field] of Object.entries(shape)) out.push([`${area}.${name}`, key, field]);
        }
      }
    }
  }
  return out;
}

describe('the contract’s text types', () => {
  it('refuse control characters with a field error, and keep ordinary text', () => {
    for (const type of [singleLine(20), requiredLine(20)]) {
      expect(type.parse('  Ana Serra ')).toBe('Ana Serra');
      for (const bad of ['a\u0000b', 'a\r\nBcc: x', 'a\tb', 'a\u007fb', 'a\u0085b', 'a\u2028b', 'a\u001bb']) {
        const result = type.safeParse(bad);
        expect(result.success, JSON.stringify(bad)).toBe(false);
        expect(result.error?.issues.map((i) => i.message)).toEqual([CONTROL_CHARACTERS]);
      }
    }
  });

  it('refuse every bidirectional control in one line, and keep right-to-left text and the characters either side of the ranges', () => {
    for (const type of [singleLine(40), requiredLine(40)]) {
      for (const bidi of BIDI_CONTROLS) {
        const result = type.safeParse(`invoice${bidi}fdp.exe`);
        expect(result.success, `U+${bidi.codePointAt(0)?.toString(16)}`).toBe(false);
        expect(result.error?.issues.map((i) => i.message)).toEqual([CONTROL_CHARACTERS]);
      }
      // Neighbours of the two ranges that are ordinary text: a narrow no-break space, a word joiner.
      for (const fine of ['שלום עולם', 'مرحبا', 'a\u202fb', 'a\u2060b', 'a\u206ab']) expect(type.safeParse(fine).success, fine).toBe(true);
    }
  });

  it('leave the bidirectional controls to text that spans lines, where a right-to-left script may carry them', () => {
    for (const bidi of BIDI_CONTROLS) expect(multiLine(40).safeParse(`שלום${bidi}\nabc`).success).toBe(true);
  });

  it('are what every text field of every schema is made of: no field stores a NUL, no single-line one a line break or a bidirectional control', () => {
    const all = fields();
    expect(all.length).toBeGreaterThan(100);
    const accepted: string[] = [];
    for (const [schema, key, field] of all) {
      if (NOT_TEXT.has(key)) continue;
      if (field.safeParse('a\u0000b').success) accepted.push(`${schema}.${key}: NUL`);
      if (field.safeParse('a\u001bb').success) accepted.push(`${schema}.${key}: ESC`);
      if (!MULTI_LINE.has(key) && field.safeParse('a\r\nb').success) accepted.push(`${schema}.${key}: CR/LF`);
      if (!MULTI_LINE.has(key) && field.safeParse('a\u202eb').success) accepted.push(`${schema}.${key}: RLO`);
    }
    expect(accepted).toEqual([]);
  });
});
