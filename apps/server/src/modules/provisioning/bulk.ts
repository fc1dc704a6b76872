/**
 * A realm of many items in one transaction (docs/decisions/025-paged-lists.md): for benches and
 * tests of the paged lists, where creating 100,000 items through createItem (one transaction and
 * a name-owner check each) would take minutes. Rows are written in multi-row inserts and the
 * permissions in one INSERT … SELECT per kind, so the store does the fan-out.
 */

import { domainToASCII } from 'node:url';
import { AREAS_BY_KIND, LIST_KINDS } from '@atalaya/contract';
import { sql } from 'kysely';
import { itemSearchText } from '../../kernel/names.ts';
import { laneColumns } from '../../outbox/lanes.ts';
import { now, type Store } from '../../store/db.ts';
import { KIND_TABLE, refreshListEntries } from '../lists/entries.ts';
import { DKIM_JOB } from '../service/mail/dkim.ts';
import { AccountError, createRealm, createUser } from './accounts.ts';

export interface BulkRealmSpec {
  realm: string;
  username: string;
  password: string;
  items: number;
  /**
   * Queue each mail domain's DKIM job (its keys, its records), as an item made alone gets. Off by
   * default: a realm seeded to measure the lists would spend minutes of the server's CPU making
   * thousands of RSA keys while the measure runs.
   */
  mailKeys?: boolean;
}

export const MAX_BULK_ITEMS = 1_000_000;
const DAY = 86_400;
// Rows per insert: below SQLite's 32,766 bound variables and PostgreSQL's 65,535 for the widest row.
const BATCH = 2000;
// Accented words, so the lists' accent-insensitive filter has something to find.
const WORDS = ['región', 'tienda', 'café', 'montaña', 'año', 'música', 'jardín', 'playa', 'ñandú', 'estación'];
const TLDS = ['es', 'com', 'cat', 'net', 'org'];

export interface BulkItem {
  reference: string;
  domain: boolean;
  service: 'normal' | 'parking' | null;
  mail: boolean;
  /** Days from now; about one item in ten is already expired. */
  expiresInDays: number;
}

/**
 * The n-th item of a bulk realm (0-based): a fixed mix of six shapes (domain only; domain, hosting
 * and mail; domain and hosting; domain and parking; hosting only; mail only), so two thirds of
 * the items carry a domain, two thirds a service and one third mail.
 */
export function bulkItem(label: string, n: number): BulkItem {
  const shape = n % 6;
  return {
    // Stored as every reference is: punycode, as toDomainName writes it.
    reference: domainToASCII(`${label}-${WORDS[n % WORDS.length]}-${String(n).padStart(6, '0')}.${TLDS[n % TLDS.length]}`),
    domain: shape <= 3,
    service: shape === 1 || shape === 2 || shape === 4 ? 'normal' : shape === 3 ? 'parking' : null,
    mail: shape === 1 || shape === 5,
    expiresInDays: ((n * 7919) % 1000) - 100,
  };
}

/** Creates the realm, its user (write on every area of every kind each item has) and the items. */
export async function seedBulkRealm(store: Store, spec: BulkRealmSpec) {
  if (!Number.isSafeInteger(spec.items) || spec.items < 1 || spec.items > MAX_BULK_ITEMS) {
    throw new AccountError(`The number of items must be a whole number from 1 to ${MAX_BULK_ITEMS}`);
  }
  const realm = await createRealm(store, spec.realm);
  const user = await createUser(store, realm.name, spec.username, spec.password);
  // Item names start with the realm's first label, so two bulk realms never claim one name.
  const label = realm.name.split('.')[0];
  const t = now();
  await store.transaction().execute(async (trx) => {
    for (let first = 0; first < spec.items; first += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, spec.items - first) }, (_, i) => bulkItem(label, first + i));
      const ids = await trx
        .insertInto('item')
        .values(batch.map((b) => ({ realm_id: realm.id, reference: b.reference, search: itemSearchText(b.reference), created_at: t })))
        .returning('id')
        .execute();
      const rows = batch.map((b, i) => ({ ...b, item_id: ids[i].id, expire_at: t + b.expiresInDays * DAY }));
      const domains = rows.filter((r) => r.domain);
      const services = rows.filter((r) => r.service);
      const mails = rows.filter((r) => r.mail);
      if (domains.length)
        await trx
          .insertInto('domain')
          .values(domains.map((r) => ({ item_id: r.item_id, name: r.reference, expire_at: r.expire_at, created_at: t })))
          .execute();
      if (services.length)
        await trx
          .insertInto('service')
          .values(services.map((r) => ({ item_id: r.item_id, kind: r.service!, expire_at: r.expire_at, created_at: t })))
          .execute();
      if (mails.length)
        await trx
          .insertInto('mail_service')
          .values(mails.map((r) => ({ item_id: r.item_id, expire_at: r.expire_at, limit_accounts: 50, created_at: t })))
          .execute();
      // Every mail domain gets its DKIM keys by the same job as one made alone (createItem), one row each.
      if (spec.mailKeys && mails.length)
        await trx
          .insertInto('job')
          .values(
            mails.map((r) => ({
              kind: DKIM_JOB,
              item_id: r.item_id,
              node_id: null,
              ...laneColumns(DKIM_JOB),
              payload: JSON.stringify({ itemId: r.item_id }),
              status: 'pending',
              next_at: t,
              created_at: t,
              updated_at: t,
            })),
          )
          .execute();
    }
    for (const kind of LIST_KINDS) {
      // Literals, not parameters: PostgreSQL cannot type a bare parameter in a SELECT list; all are ours.
      const areas = sql.join(
        AREAS_BY_KIND[kind].map((area) => sql`SELECT ${sql.lit(area)} AS area`),
        sql` UNION ALL `,
      );
      await sql`
        INSERT INTO permission (user_id, item_id, area, level)
        SELECT ${sql.lit(user.id)}, item.id, areas.area, 'write'
        FROM item JOIN ${sql.table(KIND_TABLE[kind])} AS k ON k.item_id = item.id CROSS JOIN (${areas}) AS areas
        WHERE item.realm_id = ${sql.lit(realm.id)}`.execute(trx);
    }
    await refreshListEntries(trx, { userId: user.id });
  });
  // PostgreSQL plans from statistics its autovacuum gathers later: after a load this size, gather them now.
  if (store.kind === 'postgres') await sql`ANALYZE item, permission, list_entry, list_total`.execute(store);
  return { realm: realm.name, userId: user.id, items: spec.items };
}
