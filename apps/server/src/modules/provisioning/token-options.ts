import { expiryOf, parseCidr, splitCidrs, TOKEN_LIMITS } from '@atalaya/contract';
import { AccountError } from './accounts.ts';

/** What the user's and the operator's token commands both take: a name, address ranges, an expiry date. */
export interface TokenBasicOptions {
  name?: string;
  expires?: string;
  /** Address ranges, comma-separated. */
  cidr?: string;
}

/** The name, ranges and expiry of a token command's options, checked in English (an AccountError otherwise). */
export function tokenBasics(options: TokenBasicOptions) {
  const name = options.name?.trim() ?? '';
  if (!name || name.length > TOKEN_LIMITS.name) throw new AccountError(`--name is required, at most ${TOKEN_LIMITS.name} characters`);
  const cidrs = splitCidrs(options.cidr ?? '');
  const bad = cidrs.find((c) => !parseCidr(c));
  if (bad) throw new AccountError(`"${bad}" is not an address range such as 192.0.2.0/24 or 2001:db8::/32`);
  if (cidrs.length > TOKEN_LIMITS.cidrs) throw new AccountError(`At most ${TOKEN_LIMITS.cidrs} address ranges`);
  const expiresAt = options.expires === undefined ? null : expiryOf(options.expires);
  if (expiresAt === null && options.expires !== undefined) throw new AccountError('--expires must be a date as YYYY-MM-DD');
  return { name, cidrs, expiresAt };
}
