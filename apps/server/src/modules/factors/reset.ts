import type { Store } from '../../store/db.ts';
import { recordActivity } from '../activity/record.ts';
import { revokeAllTokens } from '../token/tokens.ts';

/**
 * The operator's reset (CLI `user-2fa-reset`): every factor and recovery code of the user gone,
 * sessions ended, API tokens revoked (decision 027: a token made by whoever held the lost factor
 * must not outlive the recovery), audited.
 */
export async function resetFactors(store: Store, user: { id: number; realmId: number }) {
  const { removed, revokedApiAccess } = await store.transaction().execute(async (trx) => {
    const result = await trx.deleteFrom('second_factor').where('user_id', '=', user.id).executeTakeFirst();
    await trx.deleteFrom('recovery_code').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('session').where('user_id', '=', user.id).execute();
    return { removed: Number(result.numDeletedRows), revokedApiAccess: await revokeAllTokens(trx, user.id) };
  });
  await recordActivity(store, {
    action: 'factor_reset',
    outcome: 'success',
    userId: user.id,
    realmId: user.realmId,
    ip: 'cli',
    // Named without "token": the log drops such fields as secrets.
    detail: { removed, revokedApiAccess },
  });
  return removed;
}
