import { translate } from '@atalaya/contract';
import { AccountError, findItem, findRealm, findUser, parsePermissionMap } from '../modules/provisioning/accounts.ts';
import { type TokenBasicOptions, tokenBasics } from '../modules/provisioning/token-options.ts';
import { createToken, listTokens, revokeToken, specProblems } from '../modules/token/tokens.ts';
import type { Store } from '../store/db.ts';

export interface TokenOptions extends TokenBasicOptions {
  scope?: string;
  /** Item references, comma-separated. */
  items?: string;
}

/** The operator's `token-create`: the same checks as the Preferences form, in English. Answers the token. */
export async function createTokenFor(store: Store, realm: string, username: string, options: TokenOptions) {
  const user = await findUser(store, realm, username);
  const { name, cidrs, expiresAt } = tokenBasics(options);
  if (!options.scope) throw new AccountError('--scope is required: area=level pairs such as all=read or domain=read,service_dnszone=write');
  const scope = parsePermissionMap(options.scope);
  if (!Object.values(scope).some((level) => level !== 'disabled'))
    throw new AccountError(`--scope: ${translate('en', 'account.token_scope_empty')}`);
  const references = (options.items ?? '').split(',').filter((r) => r.trim());
  const items = references.length ? await Promise.all(references.map(async (r) => (await findItem(store, realm, r.trim())).id)) : null;
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
