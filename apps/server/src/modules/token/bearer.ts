import { randomBytes } from 'node:crypto';
import { BlockList } from 'node:net';
import { parseCidr } from '@atalaya/contract';
import { hashSecret } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';

// What a user's API token and the operator's token share: a random secret stored as its hash, an
// expiry, address ranges and a last use. Both tables keep these columns under the same names.

/** The tables whose rows are bearer tokens. */
type BearerTable = 'api_token' | 'operator_token';

/** A bearer token's limits and last use, as both tables keep them. */
interface BearerRow {
  expires_at: number | null;
  cidrs: string;
  last_used_at: number | null;
  last_ip: string | null;
}

/** How often a token's last use and address reach the store at most, unless the address changes. */
const TOUCH_EVERY = 60;

/** A new token with the prefix and 256 random bits, and the columns both tables keep of it (its hash, never the token). */
export function mintToken(prefix: string, spec: { cidrs: string[]; expiresAt: number | null }) {
  const token = `${prefix}${randomBytes(32).toString('base64url')}`;
  return {
    token,
    columns: { secret_hash: hashSecret(token), cidrs: JSON.stringify(spec.cidrs), expires_at: spec.expiresAt, created_at: now() },
  };
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
 * Whether the token's row lets a call from this address in now (not expired, inside its ranges);
 * when it does, its last use is written down, at most once a minute unless the address changes.
 */
export async function admitBearer(store: Store, table: BearerTable, row: BearerRow & { id: number }, ip: string): Promise<boolean> {
  const t = now();
  if (row.expires_at !== null && t >= Number(row.expires_at)) return false;
  if (!inRanges(ip, JSON.parse(row.cidrs) as string[])) return false;
  if (row.last_used_at === null || t - Number(row.last_used_at) >= TOUCH_EVERY || row.last_ip !== ip) {
    await store.updateTable(table).set({ last_used_at: t, last_ip: ip }).where('id', '=', row.id).execute();
  }
  return true;
}

const seconds = (value: number | null) => (value === null ? null : Number(value));

/** What a token list shows of a row's limits and last use (never the secret, which the store does not have). */
export const bearerView = (row: BearerRow) => ({
  cidrs: JSON.parse(row.cidrs) as string[],
  expiresAt: seconds(row.expires_at),
  lastUsedAt: seconds(row.last_used_at),
  lastIp: row.last_ip,
});
