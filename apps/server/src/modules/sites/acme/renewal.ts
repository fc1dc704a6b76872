import type { Transaction } from 'kysely';
import { emitEvent } from '../../../kernel/events.ts';
import { enqueue } from '../../../outbox/outbox.ts';
import type { Schedule } from '../../../scheduler.ts';
import { now } from '../../../store/db.ts';
import type { Database } from '../../../store/schema.ts';
import { ISSUE_JOB } from './issue.ts';

/** The wait before trying a renewal again after `attempts` unsuccessful ones: 1 h, 2 h, 4 h … at most a day. */
export const renewalBackoffSeconds = (attempts: number) => Math.min(24 * 3600, 3600 * 2 ** Math.max(0, attempts - 1));

/**
 * Starts the renewal of every free certificate that is due at `at` and not already being issued.
 * Each attempt pushes the next one out by the back-off and counts it; a successful issuance resets
 * the count and plans the next renewal from the new certificate. Answers the sites it started.
 */
export async function renewDue(trx: Transaction<Database>, at = now()): Promise<number[]> {
  const due = await trx
    .selectFrom('site')
    .leftJoin('job', 'job.id', 'site.acme_job_id')
    .innerJoin('item', 'item.id', 'site.service_id')
    .select([
      'site.id',
      'site.name',
      'site.service_id',
      'site.acme_renew_at',
      'site.acme_failures',
      'site.acme_error',
      'job.status',
      'item.reference',
    ])
    .where('site.acme_enabled', '=', 1)
    .where('site.cert_source', '=', 'acme')
    .where('site.acme_renew_at', '<=', at)
    .orderBy('site.acme_renew_at')
    .limit(100)
    .execute();
  const started: number[] = [];
  for (const site of due) {
    if (site.status === 'pending' || site.status === 'running') continue;
    const attempts = site.acme_failures + 1;
    const claimed = await trx
      .updateTable('site')
      .set({ acme_renew_at: at + renewalBackoffSeconds(attempts), acme_failures: attempts })
      .where('id', '=', site.id)
      .where('acme_renew_at', '=', site.acme_renew_at)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) continue;
    // The attempt before this one did not renew it (a success resets the count): the operator hears
    // of each retry, at most daily by the back-off, before the certificate runs out.
    if (site.acme_failures > 0) {
      await emitEvent(trx, 'certificate.renewal_failing', {
        reference: site.reference,
        host: `${site.name}.${site.reference}`,
        failures: site.acme_failures,
        error: site.acme_error === null ? null : (JSON.parse(site.acme_error) as { key: string }).key,
        at,
      });
    }
    const job = await enqueue(trx, ISSUE_JOB, { siteId: site.id }, site.service_id);
    await trx.updateTable('site').set({ acme_job_id: job, acme_error: null }).where('id', '=', site.id).execute();
    started.push(site.id);
  }
  return started;
}

/**
 * The renewals as a schedule (runtime.ts's SCHEDULES): soon after the start, then hourly, in one
 * process at a time; each claim above is also a conditional update, so even two sweeps could not
 * start the same renewal twice.
 */
export const renewalSchedule = (): Schedule => ({
  name: 'certificate-renewal',
  everyMs: 3_600_000,
  firstAfterMs: 5_000,
  run: (trx) => renewDue(trx),
});
