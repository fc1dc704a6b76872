import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as contract from './index.ts';
import { CONTROL_CHARACTERS, requiredLine, singleLine } from './strings.ts';

/** Fields that are not text to keep: secrets only hashed or compared, a token decoded and checked, DNS record data (decision 007). */
const NOT_TEXT = new Set(['password', 'actualPassword', 'recaptcha_response', 'value']);
/** Text that may span lines: tab, CR and LF are kept, the other controls refused. */
const MULTI_LINE = new Set(['contents', 'iframeDescription', 'digest', 'cert', 'certkey', 'certchain']);

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

  it('are what every text field of every schema is made of: no field stores a NUL, no single-line one a line break', () => {
    const all = fields();
    expect(all.length).toBeGreaterThan(100);
    const accepted: string[] = [];
    for (const [schema, key, field] of all) {
      if (NOT_TEXT.has(key)) continue;
      if (field.safeParse('a\u0000b').success) accepted.push(`${schema}.${key}: NUL`);
      if (field.safeParse('a\u001bb').success) accepted.push(`${schema}.${key}: ESC`);
      if (!MULTI_LINE.has(key) && field.safeParse('a\r\nb').success) accepted.push(`${schema}.${key}: CR/LF`);
    }
    expect(accepted).toEqual([]);
  });
});
