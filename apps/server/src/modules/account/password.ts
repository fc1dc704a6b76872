import type { ChangePasswordInput } from '@atalaya/contract';
import { FieldErrors } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../../passwords.ts';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import { type ActivityEntry, recordActivity } from '../activity/record.ts';
import type { SessionUser } from '../permission/caller.ts';
import { createSession } from '../session/sessions.ts';
import { revokeAllTokens } from '../token/tokens.ts';
import { reauthenticate } from './reauth.ts';

/**
 * Asks for the current password or a second-factor code (reauthenticate), then ends every session
 * of the user, this one included, revokes every API token (decision 027), and opens a fresh session
 * for this browser: whoever else held a session, a copy of its cookie or a token made with it is
 * out, and the user stays signed in here. Answers the new session's token.
 */
export async function changePassword(
  ctx: { store: Store; secrets: Secrets; ip: string },
  user: SessionUser,
  input: ChangePasswordInput,
  who: Pick<ActivityEntry, 'realmId' | 'userId' | 'actor' | 'token' | 'ip' | 'agent'>,
) {
  const { store } = ctx;
  await reauthenticate(ctx, user, { password: input.actualPassword, code: input.code }, 'changepass', {
    password: 'actualPassword',
    code: 'code',
  });
  const row = await store.selectFrom('user').select('password_hash').where('id', '=', user.id).executeTakeFirstOrThrow();
  // Checked against the stored hash: the user may have proven itself with a code instead.
  if (input.password === input.actualPassword || (await verifyPassword(row.password_hash, input.password))) {
    throw FieldErrors.one('password', 'account.password_same');
  }
  const hash = await hashPassword(input.password);
  await store.transaction().execute(async (trx) => {
    await trx.updateTable('user').set({ password_hash: hash }).where('id', '=', user.id).execute();
    await trx.deleteFrom('session').where('user_id', '=', user.id).execute();
    const revokedApiAccess = await revokeAllTokens(trx, user.id);
    // That the password changed is recorded, never the password: the log shows it redacted.
    const changes = [{ field: 'password', before: '', after: '' }];
    await recordActivity(trx, { ...who, action: 'changepass', area: 'account', changes, detail: { revokedApiAccess } });
  });
  return createSession(store, user.id, ctx.ip);
}
