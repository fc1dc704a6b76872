import { expiryOf, parseCidr, splitCidrs, TOKEN_LIMITS, translate } from '@atalaya/contract';
import { AccountError, findItem, findRealm, findUser, parsePermissionMap } from '../modules/provisioning/accounts.ts';
import { createToken, listTokens, revokeToken, specProblems } from '../modules/token/tokens.ts';
import type { Store } from '../store/db.ts';

export interface TokenOptions {
  name?: string;
  scope?: string;
  /** Item references, comma-separated. */
  items?: string;
  expires?: string;
  /** Address ranges, comma-separated. */
  cidr?: string;
}

/** The operator's `token-create`: the same checks as the Preferences form, in English. Answers the token. */
export async function createTokenFor(store: Store, realm: string, username: string, options: TokenOptions) {
  const user = await findUser(store, realm, username);
  const name = options.name?.trim() ?? '';
  if (!name || name.length > TOKEN_LIMITS.name) throw new AccountError(`--name is required, at most ${TOKEN_LIMITS.name} characters`);
  if (!options.scope) throw new AccountError('--scope is required: area=level pairs such as all=read or domain=read,service_dnszone=write');
  const scope = parsePermissionMap(options.scope);
  if (!Object.values(scope).some((level) => level !== 'disabled'))
    throw new AccountError(`--scope: ${translate('en', 'account.token_scope_empty')}`);
  const references = (options.items ?? '').split(',').filter((r) => r.trim());
  const items = references.length ? await Promise.all(references.map(async (r) => (await findItem(store, realm, r.trim())).id)) : null;
  const cidrs = splitCidrs(options.cidr ?? '');
  const bad = cidrs.find((c) => !parseCidr(c));
  if (bad) throw new AccountError(`"${bad}" is not an address range such as 192.0.2.0/24 or 2001:db8::/32`);
  if (cidrs.length > TOKEN_LIMITS.cidrs) throw new AccountError(`At most ${TOKEN_LIMITS.cidrs} address ranges`);
  const expiresAt = options.expires === undefined ? null : expiryOf(options.expires);
  if (expiresAt === null && options.expires !== undefined) throw new AccountError('--expires must be a date as YYYY-MM-DD');
  const spec = { name, scope, items, cidrs, expiresAt };
  const problems = await specProblems(store, { id: user.id, realmId: user.realm_id }, spec);
  if (problems.length) throw new AccountError(problems.map((p) => `--${p.field}: ${translate('en', p.key)}`).join('; '));
  return createToken(store, user.id, spec);
}

const day = (seconds: number | null) => (seconds === null ? '-' : new Date(seconds * 1000).toISOString().slice(0, 10));
const when = (seconds: number | null) =>
  seconds === null ? 'never' : new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');

/** One line per token of the realm's users (or of one user): id, user, name, scope, items, ranges, expiry, last use. */
export async function tokenLines(store: Store, realm: string, username?: string) {
  const realmRow = await findRealm(store, realm);
  const users = username
    ? [await findUser(store, realm, username)]
    : await store.selectFrom('user').selectAll().where('realm_id', '=', realmRow.id).orderBy('username').execute();
  const lines: string[] = [];
  for (const user of users) {
    for (const t of await listTokens(store, user.id)) {
      const scope = Object.entries(t.scope)
        .filter(([, level]) => level !== 'disabled')
        .map(([area, level]) => `${area}=${level}`)
        .join(',');
      const items = t.items.map((i) => i.reference).join(',') || 'all items';
      const last = t.lastUsedAt === null ? 'never used' : `last used ${when(t.lastUsedAt)} from ${t.lastIp}`;
      lines.push(
        [
          t.id,
          user.username,
          t.name,
          scope,
          items,
          t.cidrs.join(',') || 'any address',
          `expires ${day(t.expiresAt === null ? null : t.expiresAt - 86_400)}`,
          last,
        ].join('\t'),
      );
    }
  }
  return lines;
}

/** The operator's `token-revoke`: the token stops working on its next call, in every process. */
export async function revokeTokenOf(store: Store, realm: string, username: string, id: string) {
  const user = await findUser(store, realm, username);
  if (!/^\d{1,9}$/.test(id) || !(await revokeToken(store, user.id, Number(id)))) {
    throw new AccountError(`${username}@${realm} has no token ${id}`);
  }
}
