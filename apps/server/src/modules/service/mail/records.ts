import type { Transaction } from 'kysely';
import type { Config } from '../../../config/config.ts';
import { dkimRecord } from '../../../dkim.ts';
import { now } from '../../../store/db.ts';
import type { Database } from '../../../store/schema.ts';
import { MAIL_AUTHOR, mailRecords, missingRecords } from '../../dns/mail-records.ts';
import { changeZoneIn } from '../../dns/zone.ts';

/**
 * Publishes what is missing in the item's zone, in the caller's transaction, as one change of the
 * zone (its history and its apply job included). No zone yet, nothing missing: nothing changes.
 */
export async function publishMailRecords(trx: Transaction<Database>, config: Config, itemId: number) {
  const zone = await trx.selectFrom('dns_zone').select('name').where('item_id', '=', itemId).executeTakeFirst();
  if (!zone) return null;
  const wanted = await mailRecords(trx, config, itemId, zone.name);
  const present = await trx.selectFrom('dns_record').select(['zona', 'type', 'value']).where('item_id', '=', itemId).execute();
  if (missingRecords(wanted, present).length === 0) return null;
  return changeZoneIn(trx, itemId, MAIL_AUTHOR, async (t, records, _zone, touch) => {
    const missing = missingRecords(wanted, records);
    if (missing.length)
      await t
        .insertInto('dns_record')
        .values(missing.map((r) => ({ ...r, item_id: itemId, created_at: now() })))
        .execute();
    for (const r of missing) touch({ zona: r.zona, type: r.type });
  });
}

/** Takes a removed DKIM key's record out of the item's zone, in the caller's transaction (only that exact record). */
export async function unpublishDkim(
  trx: Transaction<Database>,
  key: { item_id: number; selector: string; algorithm: 'rsa' | 'ed25519'; public_key: string },
) {
  const zona = `${key.selector}._domainkey`;
  const value = dkimRecord(key.algorithm, key.public_key);
  const found = await trx
    .selectFrom('dns_record')
    .select('id')
    .where('item_id', '=', key.item_id)
    .where('zona', '=', zona)
    .where('type', '=', 'TXT')
    .where('value', '=', value)
    .execute();
  if (found.length === 0) return null;
  return changeZoneIn(trx, key.item_id, MAIL_AUTHOR, async (t, _records, _zone, touch) => {
    await t
      .deleteFrom('dns_record')
      .where(
        'id',
        'in',
        found.map((f) => f.id),
      )
      .execute();
    touch({ zona, type: 'TXT' });
  });
}
