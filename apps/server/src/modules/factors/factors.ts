import type { Factor } from '@atalaya/contract';
import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import { matchTotp } from './totp.ts';

/** The user's factors as the Preferences list shows them, oldest first. */
export async function listFactors(store: Store, userId: number): Promise<Factor[]> {
  const rows = await store
    .selectFrom('second_factor')
    .select(['id', 'kind', 'name', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, kind: r.kind, name: r.name, createdAt: r.created_at, lastUsedAt: r.last_used_at }));
}

export async function hasFactor(store: Store, userId: number): Promise<boolean> {
  const row = await store.selectFrom('second_factor').select('id').where('user_id', '=', userId).executeTakeFirst();
  return Boolean(row);
}

export const totpFactor = (store: Store, userId: number) =>
  store
    .selectFrom('second_factor')
    .select(['id', 'secret', 'last_step', 'created_at'])
    .where('user_id', '=', userId)
    .where('kind', '=', 'totp')
    .executeTakeFirst();

/**
 * Checks a code of the user's authenticator app and spends its time step: the update only wins
 * while the stored last step is older, so a code (or an older one) is accepted once, even by
 * two requests racing in two processes. With `enrolledBefore`, an app enrolled at or after that
 * time answers false without spending anything.
 */
export async function checkTotp(store: Store, secrets: Secrets, userId: number, code: string, enrolledBefore?: number): Promise<boolean> {
  const factor = await totpFactor(store, userId);
  if (!factor?.secret) return false;
  if (enrolledBefore !== undefined && Number(factor.created_at) >= enrolledBefore) return false;
  const step = matchTotp(secrets.decrypt(factor.secret), code, now(), Number(factor.last_step));
  if (step === null) return false;
  const result = await store
    .updateTable('second_factor')
    .set({ last_step: step, last_used_at: now() })
    .where('id', '=', factor.id)
    .where('last_step', '<', step)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether the code is right for the user's authenticator app enrolled at or after `since` (nothing spent). */
export async function isNewTotpCode(store: Store, secrets: Secrets, userId: number, code: string, since: number): Promise<boolean> {
  const factor = await totpFactor(store, userId);
  if (!factor?.secret || Number(factor.created_at) < since) return false;
  return matchTotp(secrets.decrypt(factor.secret), code, now(), Number(factor.last_step)) !== null;
}
