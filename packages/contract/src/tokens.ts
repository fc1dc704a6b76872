/** API tokens: what a user (or the operator's CLI) creates, and what the token list shows. */
import { z } from 'zod';
import { isIPv4, isIPv6 } from './domain/validators.ts';
import { reauthCode } from './factors.ts';
import { AREAS, isArea, LEVELS, type Level, type PermissionMap } from './permissions.ts';
import { LIMITS } from './settings.ts';
import { multiLine, requiredLine } from './strings.ts';

/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const TOKEN_PREFIX = 'atl_';
/** The prefix and 32 random bytes in base64url: anything else is not a token and is refused unread. */
export const TOKEN_PATTERN = /^atl_[A-Za-z0-9_-]{43}$/;

export type ScopeProblem = { kind: 'empty' } | { kind: 'level'; value: string } | { kind: 'area'; value: string };

/**
 * Reads "all=read,domain_dns=write" (the CLI's grant syntax) into a permission map; `all` sets every
 * area and a later pair overrides it. Answers the first problem instead when the text is not one.
 */
export function parseLevels(text: string): { map: PermissionMap } | { problem: ScopeProblem } {
  const map: PermissionMap = {};
  for (const part of text.split(',').filter((p) => p.trim())) {
    const [area = '', level = ''] = part.split('=').map((s) => s.trim());
    if (!(LEVELS as readonly string[]).includes(level)) return { problem: { kind: 'level', value: level } };
    if (area === 'all') for (const a of AREAS) map[a] = level as Level;
    else if (isArea(area)) map[area] = level as Level;
    else return { problem: { kind: 'area', value: area } };
  }
  if (Object.keys(map).length === 0) return { problem: { kind: 'empty' } };
  return { map };
}

/** The text form of a map, only the areas above disabled, in the areas' order: what the web form sends. */
export const levelsText = (map: PermissionMap) =>
  AREAS.filter((a) => map[a] && map[a] !== 'disabled')
    .map((a) => `${a}=${map[a]}`)
    .join(',');

const RANK: Record<Level, number> = { disabled: 0, read: 1, write: 2 };
/** The lower of two levels: a token never holds more than its user, nor more than its scope. */
export const lowerLevel = (a: Level | undefined, b: Level | undefined): Level =>
  RANK[a ?? 'disabled'] <= RANK[b ?? 'disabled'] ? (a ?? 'disabled') : (b ?? 'disabled');
export const isAbove = (a: Level | undefined, b: Level | undefined) => RANK[a ?? 'disabled'] > RANK[b ?? 'disabled'];

/** An address range: an IPv4 or IPv6 address with a prefix length (a bare address is one host). */
export function parseCidr(text: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | null {
  const [address = '', prefixText, extra] = text.split('/');
  if (extra !== undefined) return null;
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (!family) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return null;
  return { address, prefix: Number(prefixText), family };
}

/** Ranges typed one per line or separated by commas or spaces. */
export const splitCidrs = (text: string) => text.split(/[\s,]+/).filter(Boolean);

export const TOKEN_LIMITS = { name: 64, cidrs: 20, items: 1000, perMinute: 600 } as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Midnight UTC at the start of the day after the date: a token "until 2027-01-31" works all that day. */
export function expiryOf(date: string): number | null {
  const time = Date.parse(`${date}T00:00:00Z`);
  if (!DATE.test(date) || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== date) return null;
  return time / 1000 + 86_400;
}

export const tokenCreateSchema = z
  .object({
    name: requiredLine(TOKEN_LIMITS.name),
    /** The current password, or a code of the user's second factor: creating a credential asks again, like changing the password. */
    password: z.string().max(LIMITS.passwordMax).optional(),
    code: reauthCode.optional(),
    scope: z
      .string()
      .max(2000)
      .transform((text, ctx) => {
        const parsed = parseLevels(text);
        if ('map' in parsed && Object.values(parsed.map).some((level) => level !== 'disabled')) return parsed.map;
        ctx.addIssue({ code: 'custom', message: 'account.token_scope_empty' });
        return z.NEVER;
      }),
    items: z
      .array(
        z.coerce
          .number()
          .int()
          .positive()
          .max(2 ** 31 - 1),
      )
      .max(TOKEN_LIMITS.items)
      .optional(),
    expires: z
      .string()
      .trim()
      .refine((v) => v === '' || expiryOf(v) !== null, 'account.token_expiry_invalid')
      .optional(),
    cidrs: multiLine(2000)
      .transform((text) => splitCidrs(text))
      .refine((list) => list.every((c) => parseCidr(c)), 'account.token_cidr_invalid')
      .refine((list) => list.length <= TOKEN_LIMITS.cidrs, 'account.token_cidr_too_many')
      .optional(),
  })
  // Checked even when another field failed, so an empty form names every field it lacks.
  .refine((v) => Boolean(v?.password || v?.code), { path: ['password'], message: 'validation.required', when: () => true });
export type TokenCreateInput = z.input<typeof tokenCreateSchema>;

export const tokenSchema = z.object({
  id: z.number(),
  name: z.string(),
  /** The areas the token may use and at which level (its user's current level still caps it). */
  scope: z.record(z.enum(AREAS), z.enum(LEVELS)),
  /** The items it is limited to; empty: every item its user may see. */
  items: z.array(z.object({ id: z.number(), reference: z.string() })),
  cidrs: z.array(z.string()),
  /** Unix seconds from which it no longer works; null: no expiry. */
  expiresAt: z.number().nullable(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
  lastIp: z.string().nullable(),
});
export type ApiToken = z.infer<typeof tokenSchema>;

export const tokenListSchema = z.object({
  tokens: z.array(tokenSchema),
  /** The highest level the user holds on each area on any item: a new token's scope stays within it. */
  ceiling: z.record(z.enum(AREAS), z.enum(LEVELS)),
});
export type TokenList = z.infer<typeof tokenListSchema>;

/** The new token's secret, shown once and never again: the store keeps only its hash. */
export const tokenCreatedSchema = z.object({ token: z.string(), item: tokenSchema });
