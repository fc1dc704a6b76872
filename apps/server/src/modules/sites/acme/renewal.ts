import type { X509Certificate } from 'node:crypto';
import type { Transaction } from 'kysely';
import { enqueue } from '../../../outbox/outbox.ts';
import type { Runtime } from '../../../runtime.ts';
import { now } from '../../../store/db.ts';
import { EXCLUSIVE, runExclusive } from '../../../store/exclusive.ts';
import type { Database } from '../../../store/schema.ts';
import { warnExpiring } from '../../expiry/warnings.ts';
import { ISSUE_JOB } from './issue.ts';

/** When a certificate is renewed: once a third of its lifetime remains (Unix seconds). */
export function renewalAt(cert: X509Certificate): number {
  const from = cert.validFromDate.getTime() / 1000;
  const to = cert.validToDate.getTime() / 1000;
  return Math.floor(to - (to - from) / 3);
}

/** The wait before trying a renewal again after `attempts` unsuccessful ones: 1 h, 2 h, 4 h … at most a day. */
export const renewalBackoffSeconds = (attempts: number) => Math.min(24 * 3600, 3600 * 2 ** Math.max(0, attempts - 1));

/**
 * Runs `sweep` in one process at a time (runExclusive: another process holding the sweep skips
 * this round). Each claim in the sweep is also a conditional update, so even two sweeps could not
 * start the same renewal twice.
 */
async function alone<T>(runtime: Runtime, sweep: (trx: Transaction<Database>) => Promise<T[]>): Promise<T[]> {
  let result: T[] = [];
  await runExclusive(runtime.store, EXCLUSIVE.certificateSweep, async (trx) => {
    result = await sweep(trx);
  });
  return result;
}

/**
 * Starts the renewal of every free certificate that is due at `at` and not already being issued.
 * Each attempt pushes the next one out by the back-off and counts it; a successful issuance resets
 * the count and plans the next renewal from the new certificate. Answers the sites it started.
 */
export function renewDue(runtime: Runtime, at = now()): Promise<number[]> {
  return alone(runtime, async (trx) => {
    const due = await trx
      .selectFrom('site')
      .leftJoin('job', 'job.id', 'site.acme_job_id')
      .select(['site.id', 'site.service_id', 'site.acme_renew_at', 'site.acme_failures', 'job.status'])
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
      const job = await enqueue(trx, ISSUE_JOB, { siteId: site.id }, site.service_id);
      await trx.updateTable('site').set({ acme_job_id: job, acme_error: null }).where('id', '=', site.id).execute();
      started.push(site.id);
    }
    return started;
  });
}

/**
 * The certificate scheduler of a server process: renewals, then expiry warnings, soon after start
 * and every `intervalMs`; each sweep runs in one process at a time.
 */
export function startRenewals(runtime: Runtime, intervalMs = 3_600_000): () => void {
  let stopped = false;
  const tick = async () => {
    try {
      await renewDue(runtime);
      await warnExpiring(runtime);
    } catch (error) {
      console.error(`certificate sweep failed: ${(error as Error).message}`);
    }
  };
  const first = setTimeout(tick, 5_000);
  const timer = setInterval(() => void (stopped || tick()), intervalMs);
  first.unref();
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
  };
}
