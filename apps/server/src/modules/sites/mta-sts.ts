import type { Kysely, Transaction } from 'kysely';
import type { Config } from '../../config/config.ts';
import { enqueue } from '../../outbox/outbox.ts';
import { now } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { MAIL_AUTHOR, MTA_STS_HOST, mtaStsRecord, mtaStsSiteOf } from '../dns/mail-records.ts';
import { changeZoneIn } from '../dns/zone.ts';
import { ISSUE_JOB } from './acme/issue.ts';
import { enqueueApply, siteKey } from './state.ts';

/**
 * Makes sure a mail domain with MTA-STS on serves its policy (RFC 8461 §3.2): the hosting service
 * gets its `mta-sts` site with a free certificate ordered through the ACME job, as a customer's
 * subdomain would; an existing one is applied again, which brings its policy up to date. Without
 * MTA-STS, a mail service or a hosting service (the sites driver has no host to put it on) nothing
 * changes. In the caller's transaction; returns the site's id or null.
 */
export async function ensureMtaStsSite(trx: Transaction<Database>, config: Config, itemId: number): Promise<number | null> {
  if (config.hosting.mailRecords.mtaSts === 'off' || !config.hosting.mailRecords.mtaStsHost) return null;
  const [service, mail] = await Promise.all([
    trx.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst(),
    trx.selectFrom('mail_service').select('item_id').where('item_id', '=', itemId).executeTakeFirst(),
  ]);
  if (!service || !mail) return null;
  const existing = await mtaStsSiteOf(trx, itemId);
  if (existing) {
    await enqueueApply(trx, itemId, siteKey(existing.id));
    return existing.id;
  }
  const t = now();
  const site = await trx
    .insertInto('site')
    .values({ service_id: itemId, name: MTA_STS_HOST, folder: MTA_STS_HOST, created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  await enqueueApply(trx, itemId, siteKey(site.id));
  const job = await enqueue(trx, ISSUE_JOB, { siteId: site.id }, itemId);
  await trx.updateTable('site').set({ acme_enabled: 1, acme_job_id: job }).where('id', '=', site.id).execute();
  return site.id;
}

/** Whether the item's policy is served by its own `mta-sts` site (the mail screen says so instead of asking the operator to). */
export async function servesMtaSts(db: Kysely<Database>, config: Config, itemId: number): Promise<boolean> {
  const { mtaSts, mtaStsHost } = config.hosting.mailRecords;
  if (mtaSts === 'off' || !mtaStsHost) return false;
  return (await mtaStsSiteOf(db, itemId)) !== undefined;
}

/** A `_mta-sts` record as the panel writes it; any other is the customer's and stays as it is. */
const OURS = /^v=STSv1; id=[0-9a-f]{20}$/;

/**
 * After the host serves a new policy (the MX records changed), the `_mta-sts` record the panel
 * published takes the new policy's id, which is what makes senders fetch it again. One change of
 * the zone by the mail service; nothing when the id is current or the record is not the panel's.
 */
export async function refreshMtaStsRecord(db: Kysely<Database>, itemId: number, policy: string) {
  const wanted = mtaStsRecord(policy);
  const present = await db
    .selectFrom('dns_record')
    .select(['id', 'value'])
    .where('item_id', '=', itemId)
    .where('zona', '=', '_mta-sts')
    .where('type', '=', 'TXT')
    .execute();
  const stale = present.filter((r) => OURS.test(r.value) && r.value !== wanted);
  if (stale.length === 0 || present.some((r) => r.value === wanted)) return null;
  return db.transaction().execute((trx) =>
    changeZoneIn(trx, itemId, MAIL_AUTHOR, async (t, _records, _zone, touch) => {
      await t.updateTable('dns_record').set({ value: wanted }).where('id', '=', stale[0]!.id).execute();
      touch({ zona: '_mta-sts', type: 'TXT' });
    }),
  );
}
