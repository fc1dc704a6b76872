import type { UserInfo } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { countEntries } from '../lists/query.ts';
import type { SessionUser } from '../permission/caller.ts';

/** The record behind the dashboard (username, business, ip, last_login, total_domain) and the shell. */
export async function userInfo(app: FastifyInstance, user: SessionUser): Promise<UserInfo> {
  const row = await app.runtime.store.selectFrom('user').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
  const company = app.runtime.config.company.name;
  return {
    id: row.id,
    user: row.username,
    name: row.name,
    email: row.email,
    domainName: user.realmName,
    company,
    business: company,
    tsLastLogin: row.prev_login_at ?? row.last_login_at,
    ip: row.prev_ip ?? row.last_ip,
    // The domain list's total: one index range however many domains the realm holds.
    total_domain: await countEntries(app.runtime.store, user, 'domain'),
    language: row.language,
    theme: row.theme,
    color: row.color,
    canSetColor: app.runtime.config.company.allowCustomerColor,
    mustEnrol: user.mustEnrol,
  };
}
