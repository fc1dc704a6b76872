import { AREAS_BY_KIND, preferencesSchema, type UserInfo } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FieldErrors } from '../../http/errors.ts';
import type { Store } from '../../store/db.ts';
import type { SessionUser } from '../session/sessions.ts';

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
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** POST /user/info/ and /user/preferences/. */
export default async function userRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/user/info/', async (request) => {
    const user = request.user!;
    const row = await app.store.selectFrom('user').selectAll().where('id', '=', user.id).executeTakeFirstOrThrow();
    const company = app.config.company.name;
    const data: UserInfo = {
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
    };
    return { data };
  });

  api.post('/user/preferences/', { schema: { body: preferencesSchema } }, async (request) => {
    const { theme, color, language } = request.body;
    if (color && !app.config.company.allowCustomerColor) throw FieldErrors.one('color', 'account.color_not_allowed');
    const user = request.user!;
    if (theme || color || language) {
      await app.store.updateTable('user').set({ theme, color, language }).where('id', '=', user.id).execute();
    }
    // The confirmation reads in the language just chosen.
    if (language) request.forcedLanguage = language;
    const data = { theme: theme ?? user.theme, color: color ?? user.color, language: language ?? user.language };
    return { data, info: [{ key: 'account.preferences_saved' }] };
  });
}
