import { BlockList } from 'node:net';
import { parseCidr, TOKEN_PATTERN } from '@atalaya/contract';
import type { Config } from '../../config/config.ts';
import { hashSecret } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import type { SessionUser } from '../permission/caller.ts';
import { itemsOf, scopeOf } from '../token/tokens.ts';
import { CALLER_COLUMNS, callerOf, hasFactor } from './sessions.ts';

/** How often a token's last use and address reach the store at most, unless the address changes. */
const TOUCH_EVERY = 60;

/** The token of an `Authorization: Bearer …` header; undefined when the request carries none. */
export function bearerOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer[ \t]+(\S*)[ \t]*$/i.exec(header);
  return match ? match[1] : undefined;
}

// A client reached over an IPv6 socket shows as ::ffff:a.b.c.d; its ranges are written as IPv4.
const plainAddress = (ip: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(ip) ? ip.slice(7) : ip);

/** True when the address is inside one of the ranges (none: any address). */
export function inRanges(ip: string, cidrs: string[]): boolean {
  if (cidrs.length === 0) return true;
  const list = new BlockList();
  for (const text of cidrs) {
    const cidr = parseCidr(text);
    if (cidr) list.addSubnet(cidr.address, cidr.prefix, cidr.family);
  }
  const address = plainAddress(ip);
  try {
    return list.check(address, address.includes(':') ? 'ipv6' : 'ipv4');
  } catch {
    return false;
  }
}

/**
 * The user a bearer token acts for, with its grant, or null: a malformed, unknown (revoked),
 * expired or out-of-range token, or one whose user or realm is disabled. Read from the store on
 * every call, never cached, so a revocation applies at once in every process.
 */
export async function authenticateToken(config: Config, store: Store, token: string, ip: string): Promise<SessionUser | null> {
  if (!TOKEN_PATTERN.test(token)) return null;
  const row = await store
    .selectFrom('api_token')
    .innerJoin('user', 'user.id', 'api_token.user_id')
    .innerJoin('realm', 'realm.id', 'user.realm_id')
    .select([
      'api_token.id as token_id',
      'api_token.name as token_name',
      'api_token.scope',
      'api_token.items',
      'api_token.cidrs',
      'api_token.expires_at',
      'api_token.last_used_at',
      'api_token.last_ip',
      ...CALLER_COLUMNS,
    ])
    .select(hasFactor)
    .where('api_token.secret_hash', '=', hashSecret(token))
    .executeTakeFirst();
  const t = now();
  if (!row || row.disabled || row.realm_disabled) return null;
  if (row.expires_at !== null && t >= row.expires_at) return null;
  if (!inRanges(ip, JSON.parse(row.cidrs) as string[])) return null;
  if (row.last_used_at === null || t - row.last_used_at >= TOUCH_EVERY || row.last_ip !== ip) {
    await store.updateTable('api_token').set({ last_used_at: t, last_ip: ip }).where('id', '=', row.token_id).execute();
  }
  // No session: the calls that use one (sign-out, password, tokens) are closed to tokens.
  return callerOf(config, row, '', { id: row.token_id, name: row.token_name, scope: scopeOf(row.scope), items: itemsOf(row.items) });
}
