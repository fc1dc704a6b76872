import type { Kysely, Transaction } from 'kysely';
import { type DkimAlgorithm, dkimRecord, generateDkimKey, txtStrings } from '../../../dkim.ts';
import { dnsSettings } from '../../../drivers/dns/index.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import { enqueue } from '../../../outbox/outbox.ts';
import type { Schedule } from '../../../scheduler.ts';
import { now } from '../../../store/db.ts';
import type { Database } from '../../../store/schema.ts';
import { publishedWithZone } from '../../dns/mail-records.ts';
import { ensureZone } from '../../dns/zone.ts';
import { ensureMtaStsSite } from '../../sites/mta-sts.ts';
import { publishMailRecords, unpublishDkim } from './records.ts';

type Db = Kysely<Database> | Transaction<Database>;

export const DKIM_JOB = 'service.dkim.apply';

/** The algorithms a domain signs with: RSA 2048, and Ed25519 beside it when configured. */
const algorithmsOf = (runtime: Pick<Runtime, 'config'>): DkimAlgorithm[] =>
  runtime.config.hosting.dkimEd25519 ? ['rsa', 'ed25519'] : ['rsa'];

/** A selector that names its year and month and never repeats one of the domain's (`a202611`, then `b202611`…). */
async function freeSelector(db: Db, itemId: number, algorithm: DkimAlgorithm) {
  const taken = new Set(
    (await db.selectFrom('mail_dkim').select('selector').where('item_id', '=', itemId).execute()).map((r) => r.selector),
  );
  const month = new Date().toISOString().slice(0, 7).replace('-', '');
  for (const letter of 'abcdefghijklmnopqrstuvwxyz') {
    const selector = `${letter}${month}${algorithm === 'ed25519' ? 'e' : ''}`;
    if (!taken.has(selector)) return selector;
  }
  return `k${Date.now().toString(36)}${algorithm === 'ed25519' ? 'e' : ''}`;
}

async function insertKeys(
  db: Db,
  runtime: Pick<Runtime, 'config' | 'secrets'>,
  itemId: number,
  state: 'published' | 'signing',
  nextAt: number | null,
) {
  for (const algorithm of algorithmsOf(runtime)) {
    const key = generateDkimKey(algorithm);
    await db
      .insertInto('mail_dkim')
      .values({
        item_id: itemId,
        selector: await freeSelector(db, itemId, algorithm),
        algorithm,
        private_secret: runtime.secrets.encrypt(key.privateKeyPem),
        public_key: key.publicKey,
        state,
        next_at: nextAt,
        created_at: now(),
      })
      .execute();
  }
}

/** Queues the job that gives the signer the domain's keys as they are when it runs. */
export const enqueueDkim = (db: Db, itemId: number) => enqueue(db, DKIM_JOB, { itemId }, itemId);

/**
 * A rotation: new keys published now, signing once resolvers can have seen them (the record's
 * TTL); the schedule then retires the old ones and removes them as long again later.
 */
export async function rotateDkim(runtime: Pick<Runtime, 'config' | 'secrets' | 'store'>, itemId: number) {
  return runtime.store.transaction().execute(async (trx) => {
    await insertKeys(trx, runtime, itemId, 'published', now() + runtime.config.hosting.dkimTtlSeconds);
    // The new keys' records join the zone in the same transaction: in DNS before they sign.
    await publishMailRecords(trx, runtime.config, itemId);
    return enqueueDkim(trx, itemId);
  });
}

/** The domain's keys as the mail screen shows them, with the TXT record each publishes. */
export async function dkimKeys(db: Db, itemId: number, reference: string) {
  const rows = await db.selectFrom('mail_dkim').selectAll().where('item_id', '=', itemId).orderBy('id').execute();
  return rows.map((r) => ({
    selector: r.selector,
    algorithm: r.algorithm,
    state: r.state,
    nextAt: r.next_at,
    record: {
      name: `${r.selector}._domainkey.${reference}`,
      type: 'TXT' as const,
      strings: txtStrings(dkimRecord(r.algorithm, r.public_key)),
    },
  }));
}

/** The job: creates the domain's first keys (the mail service is new) and tells the signer about every key. */
export function dkimJob(runtime: Runtime) {
  return async (payload: unknown) => {
    const itemId = Number((payload as { itemId?: unknown }).itemId);
    const { store, drivers, secrets } = runtime;
    const item = await store.selectFrom('item').select('reference').where('id', '=', itemId).executeTakeFirst();
    if (!item) return;
    const mail = await store.selectFrom('mail_service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
    if (!mail) return drivers.mail.ensureDkim(item.reference, []);
    const existing = await store.selectFrom('mail_dkim').select('id').where('item_id', '=', itemId).executeTakeFirst();
    if (!existing) await insertKeys(store, runtime, itemId, 'signing', null);
    // A hosting item's zone is the panel's (made on first sight otherwise): made now, with the mail
    // records in it, so they are published without anyone opening the DNS screen.
    const hosting = await store.selectFrom('service').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
    if (hosting) {
      const zones = { settings: dnsSettings(runtime.config), published: publishedWithZone(runtime.config) };
      await ensureZone(store, zones, itemId, item.reference);
    }
    // Whatever the zone lacks (first keys, a record deleted by hand) is published again.
    await store.transaction().execute(async (trx) => {
      await publishMailRecords(trx, runtime.config, itemId);
      // With MTA-STS on, the policy those records announce is served from its own host.
      await ensureMtaStsSite(trx, runtime.config, itemId);
    });
    const rows = await store.selectFrom('mail_dkim').selectAll().where('item_id', '=', itemId).orderBy('id').execute();
    await drivers.mail.ensureDkim(
      item.reference,
      rows.map((r) => ({
        selector: r.selector,
        algorithm: r.algorithm,
        privateKeyPem: secrets.decrypt(r.private_secret),
        sign: r.state === 'signing',
      })),
    );
  };
}

/** Whether the item's zone (if the panel hosts it) has applied every change made to it. */
async function zoneServes(db: Db, itemId: number) {
  const zone = await db.selectFrom('dns_zone').select(['version', 'applied_version']).where('item_id', '=', itemId).executeTakeFirst();
  return !zone || zone.applied_version >= zone.version;
}

/**
 * Moves rotations on: published keys whose time came start signing and the domain's signing
 * keys of before retire (kept published a TTL more, for mail on its way); retired keys whose time
 * came are deleted. Each domain touched gets its job.
 */
export function dkimRotationSchedule(config: { hosting: { dkimTtlSeconds: number } }): Schedule {
  return {
    name: 'dkim-rotation',
    everyMs: 60_000,
    async run(trx) {
      const t = now();
      const touched = new Set<number>();
      const due = await trx.selectFrom('mail_dkim').selectAll().where('next_at', '<=', t).execute();
      for (const key of due.filter((k) => k.state === 'published')) {
        // A key signs only once its TTL has passed and the zone serves its record (its apply job is done).
        if (!(await zoneServes(trx, key.item_id))) continue;
        await trx
          .updateTable('mail_dkim')
          .set({ state: 'retired', next_at: t + config.hosting.dkimTtlSeconds })
          .where('item_id', '=', key.item_id)
          .where('state', '=', 'signing')
          .where('algorithm', '=', key.algorithm)
          .execute();
        await trx.updateTable('mail_dkim').set({ state: 'signing', next_at: null }).where('id', '=', key.id).execute();
        touched.add(key.item_id);
      }
      for (const key of due.filter((k) => k.state === 'retired')) {
        await trx.deleteFrom('mail_dkim').where('id', '=', key.id).execute();
        await unpublishDkim(trx, key);
        touched.add(key.item_id);
      }
      for (const itemId of touched) await enqueueDkim(trx, itemId);
    },
  };
}
