import { AREAS_BY_KIND, type UserInfo } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { Store } from '../../store/db.ts';
import type { SessionUser } from '../session/sessions.ts';
import { tokenAreas, tokenItems } from '../token/tokens.ts';

/** Domains the user may see: the dashboard's total_domain. */
async function countDomains(store: Store, user: SessionUser) {
  const row = await store
    .selectFrom('item')
    .innerJoin('domain', 'domain.item_id', 'item.id')
    .innerJoin('permission', 'permission.item_id', 'item.id')
    .select((eb) => eb.fn.count<number>('item.id').distinct().as('n'))
    .where('item.realm_id', '=', user.realmId)
    .where('permission.user_id', '=', user.id)
    .where('permission.level', 'in', ['read', 'write'])
    .where('permission.area', 'in', [...AREAS_BY_KIND.domain])
    .$if(tokenAreas(user) !== null, (qb) => qb.where('permission.area', 'in', tokenAreas(user)!))
    .$if(tokenItems(user) !== null, (qb) => qb.where('permission.item_id', 'in', tokenItems(user)!))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The record behind the dashboard (username, business, ip, last_login, total_domain) and the shell. */
export async function userInfo(app: FastifyInstance, user: SessionUser): Promise<UserInfo> {
  const row = await app.store.selectFrom('user').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
  const company = app.config.company.name;
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
    total_domain: await countDomains(app.store, user),
    language: row.language,
    theme: row.theme,
    color: row.color,
    canSetColor: app.config.company.allowCustomerColor,
    mustEnrol: user.mustEnrol,
  };
}
