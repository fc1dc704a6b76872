import { enqueue } from '../../../outbox/outbox.ts';
import type { Schedule } from '../../../scheduler.ts';
import { now } from '../../../store/db.ts';
import { type DnssecPayload, DUE_STEPS } from './jobs.ts';

/**
 * Zones whose wait has passed (a withdrawn DS's TTL before unsigning, a roll's TTLs between its
 * steps) get the job of their next step (decision 034).
 */
export const dnssecStepSchedule = (): Schedule => ({
  name: 'dnssec-steps',
  everyMs: 60_000,
  async run(trx) {
    const due = await trx
      .selectFrom('dns_zone')
      .select(['item_id', 'name', 'dnssec'])
      .where('dnssec', 'in', Object.keys(DUE_STEPS))
      .where('dnssec_due_at', '<=', now())
      .execute();
    for (const zone of due) {
      const step = DUE_STEPS[zone.dnssec];
      await trx.updateTable('dns_zone').set({ dnssec: step.next, dnssec_due_at: null }).where('item_id', '=', zone.item_id).execute();
      const payload: DnssecPayload = { itemId: zone.item_id, zone: zone.name };
      await enqueue(trx, step.kind, payload, zone.item_id, { on: 'panel' });
    }
  },
});
