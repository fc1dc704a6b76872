import { changePasswordSchema } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError, FieldErrors } from '../../http/errors.ts';
import type { Store } from '../../store/db.ts';
import { hashPassword, verifyPassword } from '../accounts/passwords.ts';
import { createSession } from '../session/sessions.ts';
import { audit } from './audit.ts';
import { setSessionCookie } from './cookie.ts';
import { blockedFor, countEvent, minutesFor, passwordLimit } from './ratelimit.ts';

/**
 * Ends every session of the user, this one included, then opens a fresh one for this browser:
 * whoever else held a session (or its cookie) is out, and the user stays signed in here.
 */
async function replacePassword(store: Store, userId: number, password: string, ip: string) {
  const hash = await hashPassword(password);
  await store.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ password_hash: hash }).where('id', '=', userId).execute();
    await trx.deleteFrom('session').where('user_id', '=', userId).execute();
  });
  return createSession(store, userId, ip);
}

/** POST /user/changepass/. */
export default async function passwordRoutes(app: FastifyInstance) {
  const api = app.withTypeProvider<ZodTypeProvider>();

  api.post('/user/changepass/', { schema: { body: changePasswordSchema } }, async (request, reply) => {
    const user = request.user!;
    const { actualPassword, password } = request.body;
    const limit = passwordLimit(user.id);
    const wait = await blockedFor(app.store, limit);
    if (wait > 0) throw new ApiError(429, 'account.password_locked', { minutes: minutesFor(wait) });
    const row = await app.store.selectFrom('user').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
    const who = { userId: user.id, realmId: user.realmId, ip: request.ip };
    if (!(await verifyPassword(row.password_hash, actualPassword))) {
      await countEvent(app.store, limit);
      await audit(app.store, { action: 'changepass', outcome: 'failure', ...who });
      throw FieldErrors.one('actualPassword', 'account.wrong_password');
    }
    if (password === actualPassword) throw FieldErrors.one('password', 'account.password_same');
    setSessionCookie(request, reply, await replacePassword(app.store, user.id, password, request.ip));
    await audit(app.store, { action: 'changepass', outcome: 'success', ...who });
    return { data: null, info: [{ key: 'account.password_changed' }] };
  });
}
