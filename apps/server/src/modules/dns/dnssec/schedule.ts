import { enqueue } from '../../../outbox/outbox.ts';
import type { Schedule } from '../../../scheduler.ts';
import { now } from '../../../store/db.ts';
import { DNSSEC_UNSIGN, type DnssecPayload } from './jobs.ts';

/** Zones whose withdrawn DS has outlived its TTL get their unsign job (decision 034). */
export const dnssecUnsignSchedule = (): Schedule => ({
  name: 'dnssec-unsign',
  everyMs: 60_000,
  async run(trx) {
    const due = await trx
      .selectFrom('dns_zone')
      .select(['item_id', 'name'])
      .where('dnssec', '=', 'waiting')
      .where('dnssec_due_at', '<=', now())
      .execute();
    for (const zone of due) {
      await trx.updateTable('dns_zone').set({ dnssec: 'unsigning' }).where('item_id', '=', zone.item_id).execute();
      const payload: DnssecPayload = { itemId: zone.item_id, zone: zone.name };
      await enqueue(trx, DNSSEC_UNSIGN, payload, zone.item_id);
    }
  },
});
