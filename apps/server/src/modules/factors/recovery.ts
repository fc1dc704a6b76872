import { createHash, randomInt } from 'node:crypto';
import type { Store } from '../../store/db.ts';
import { now } from '../../store/db.ts';

export const RECOVERY_CODES = 10;
// No 0/o, 1/l/i: a code read off paper is typed right. 31 symbols, 12 of them: over 59 random bits.
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 12;

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

function newCode() {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** Shown as xxxx-xxxx-xxxx; the dashes and the case are dropped again when one is typed. */
const shown = (code: string) => code.match(/.{4}/g)!.join('-');

/**
 * A new set of ten codes replacing the old one (whatever was left of it no longer works), in one
 * transaction. Only their SHA-256 is kept: 59 random bits each leave nothing to guess offline
 * worth a slow hash, and the codes are shown this once.
 */
export async function newRecoveryCodes(store: Store, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newCode);
  await store.transaction().execute(async (trx) => {
    await trx.deleteFrom('recovery_code').where('user_id', '=', userId).execute();
    await trx
      .insertInto('recovery_code')
      .values(codes.map((code) => ({ user_id: userId, code_hash: hashCode(code), used_at: null, created_at: now() })))
      .execute();
  });
  return codes.map(shown);
}

/**
 * Spends a code (normalised: lower case, no dashes): true once, and only for an unused code of this
 * user; with `issuedBefore`, only for one issued before that time (a re-authentication's session start).
 */
export async function spendRecoveryCode(store: Store, userId: number, code: string, issuedBefore?: number): Promise<boolean> {
  const result = await store
    .updateTable('recovery_code')
    .set({ used_at: now() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashCode(code))
    .where('used_at', 'is', null)
    .$if(issuedBefore !== undefined, (qb) => qb.where('created_at', '<', issuedBefore!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Whether the code is an unused one of this user issued at or after `since`: right, but too new to count. */
export async function isNewRecoveryCode(store: Store, userId: number, code: string, since: number): Promise<boolean> {
  const row = await store
    .selectFrom('recovery_code')
    .select('id')
    .where('user_id', '=', userId)
    .where('code_hash', '=', hashCode(code))
    .where('used_at', 'is', null)
    .where('created_at', '>=', since)
    .executeTakeFirst();
  return Boolean(row);
}

export async function recoveryCodesLeft(store: Store, userId: number): Promise<number> {
  const row = await store
    .selectFrom('recovery_code')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
