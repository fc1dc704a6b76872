import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/actor.ts';
import { FieldErrors } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { recordActivity } from '../activity/record.ts';
import { diff } from '../activity/redact.ts';
import { callerKey } from '../session/auth-cache.ts';
import { userInfo } from './user-info.ts';

/** POST /user/info/ and /user/preferences/. */
export default async function userRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  route(app, endpoints.account.info, async (request) => {
    const user = request.user!;
    return { data: await app.authCache.remember(`info:${callerKey(user)}`, () => userInfo(app, user)) };
  });

  route(app, endpoints.account.preferences, async (request) => {
    const { theme, color, language } = request.body;
    if (color && !config.company.allowCustomerColor) throw FieldErrors.one('color', 'account.color_not_allowed');
    const user = request.user!;
    if (theme || color || language) {
      const before = { theme: user.theme, color: user.color, language: user.language };
      const after = { theme: theme ?? user.theme, color: color ?? user.color, language: language ?? user.language };
      await store.transaction().execute(async (trx) => {
        await trx.updateTable('user').set({ theme, color, language }).where('id', '=', user.id).execute();
        await recordActivity(trx, { ...actorOf(request), action: 'account.preferences', area: 'account', changes: diff(before, after) });
      });
    }
    // The confirmation reads in the language just chosen.
    if (language) request.forcedLanguage = language;
    const data = { theme: theme ?? user.theme, color: color ?? user.color, language: language ?? user.language };
    return { data, info: [{ key: 'account.preferences_saved' }] };
  });
}
