import type { Transaction } from 'kysely';
import type { DnsSettings } from '../../drivers/dns/index.ts';
import { SERVE_MTA_STS } from '../../kernel/hand-offs.ts';
import { enqueue } from '../../outbox/outbox.ts';
import { now, type Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { recordChange, rrsetKey, type ZoneAuthor } from './history/record.ts';
import { APPLY_ZONE, type ApplyZonePayload } from './jobs.ts';
import { mtaStsSiteOf } from './mail-records.ts';
import { insertRecords, loadRecords, loadSets, type RRsetKey } from './record-store.ts';
import type { DnsRecordRow } from './tables.ts';
import { type NewRecord, placedSettings, templateRecords } from './template.ts';

export interface DnsContext {
  settings: DnsSettings;
  /** Records another area publishes in the item's zone (the mail service's), added to a new zone's defaults. */
  published?: (db: Db, itemId: number, zone: string, records: NewRecord[]) => Promise<NewRecord[]>;
}

type Db = Store | Transaction<Database>;

/** Queues the zone's apply job (of some RRsets, or of all), in the caller's transaction. */
async function enqueueApply(trx: Transaction<Database>, itemId: number, zone: string, version: number, changed?: RRsetKey[]) {
  const payload: ApplyZonePayload = { itemId, zone, version, ...(changed ? { changed } : {}) };
  return enqueue(trx, APPLY_ZONE, payload, itemId, { on: 'panel' });
}

/** The provider's template for an item's zone, its addresses the node's the service is placed on. */
export async function zoneDefaults(db: Db, ctx: DnsContext, itemId: number, zone: string): Promise<NewRecord[]> {
  const node = await db
    .selectFrom('item')
    .innerJoin('node', 'node.id', 'item.node_id')
    .select('node.address')
    .where('item.id', '=', itemId)
    .executeTakeFirst();
  return templateRecords(placedSettings(ctx.settings, node?.address), zone);
}

/**
 * The zone of a hosting item, created on first use with the provider's template: items are made
 * by the accounts module (CLI, seed), and a lazy zone needs nothing from it.
 */
export async function ensureZone(store: Store, ctx: DnsContext, itemId: number, reference: string) {
  const found = await store.selectFrom('dns_zone').select(['name', 'version']).where('item_id', '=', itemId).executeTakeFirst();
  if (found) return found;
  try {
    return await store.transaction().execute(async (trx) => {
      await trx.insertInto('dns_zone').values({ item_id: itemId, name: reference, version: 1, created_at: now() }).execute();
      const defaults = await zoneDefaults(trx, ctx, itemId, reference);
      await insertRecords(trx, itemId, [...defaults, ...((await ctx.published?.(trx, itemId, reference, defaults)) ?? [])]);
      await enqueueApply(trx, itemId, reference, 1);
      return { name: reference, version: 1 };
    });
  } catch (error) {
    // Two first visits at once: the other one created it.
    const again = await store.selectFrom('dns_zone').select(['name', 'version']).where('item_id', '=', itemId).executeTakeFirst();
    if (again) return again;
    throw error;
  }
}

/**
 * One atomic change of a zone: bumping the version first locks the zone row (PostgreSQL), so
 * concurrent changes check the rules one after the other; the apply job joins the transaction. A
 * change that calls `touch` for each name and type it changes is applied as those RRsets alone;
 * one that touches nothing (restore, delete all) as the whole zone. The RRsets it changed, before
 * and after, go into the zone's history in the same transaction, under the author's name.
 */
export async function changeZone<T>(
  store: Store,
  itemId: number,
  author: ZoneAuthor,
  change: (trx: Transaction<Database>, records: DnsRecordRow[], zone: string, touch: (key: RRsetKey) => void) => Promise<T>,
): Promise<{ result: T; job: number; change: number | null }> {
  return store.transaction().execute((trx) => changeZoneIn(trx, itemId, author, change));
}

/** `changeZone` inside a transaction the caller holds (a change made together with another area's rows). */
export async function changeZoneIn<T>(
  trx: Transaction<Database>,
  itemId: number,
  author: ZoneAuthor,
  change: (trx: Transaction<Database>, records: DnsRecordRow[], zone: string, touch: (key: RRsetKey) => void) => Promise<T>,
): Promise<{ result: T; job: number; change: number | null }> {
  const zone = await trx
    .updateTable('dns_zone')
    .set((eb) => ({ version: eb('version', '+', 1) }))
    .where('item_id', '=', itemId)
    .returning(['name', 'version'])
    .executeTakeFirstOrThrow();
  const touched: RRsetKey[] = [];
  const records = await loadRecords(trx, itemId);
  const result = await change(trx, records, zone.name, (key) => touched.push(key));
  const keys = touched.length ? touched : null;
  const touchedSets = new Set(touched.map(rrsetKey));
  const before = keys ? records.filter((r) => touchedSets.has(rrsetKey(r))) : records;
  const changeId = await recordChange(trx, itemId, author, before, await loadSets(trx, itemId, keys));
  // An MTA-STS policy lists the domain's MX hosts: its host serves the new list.
  if (!keys || keys.some((k) => k.zona === '' && k.type === 'MX')) await serveMtaStsAgain(trx, itemId);
  const job = await enqueueApply(trx, itemId, zone.name, zone.version, keys ?? undefined);
  return { result, job, change: changeId };
}

/**
 * The MX records an MTA-STS policy lists changed: the item's policy site, when it has one, serves
 * the new list. Handed to the sites area by job (kernel/hand-offs.ts), which the DNS area may not import.
 */
async function serveMtaStsAgain(trx: Transaction<Database>, itemId: number) {
  const site = await mtaStsSiteOf(trx, itemId);
  if (site) await enqueue(trx, SERVE_MTA_STS, { siteId: site.id }, itemId);
}
