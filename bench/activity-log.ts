/**
 * The activity log stays fast when it is large (decision 023): seeds a store with N lines (default
 * 200,000; 30 realms, 40 items each, one year of history) and times the Activity page's query for a
 * reader of half of one realm's items, each filter alone and a deep page. SQLite by default;
 * DATABASE_URL=postgres://… for PostgreSQL (an empty database of its own).
 *
 *   node --disable-warning=ExperimentalWarning bench/activity-log.ts [lines]
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AREAS } from '@atalaya/contract';
import { loadConfig } from '../apps/server/src/config/config.ts';
import { eventPage, filteredEvents, visibleTo } from '../apps/server/src/modules/activity/query.ts';
import { createItem, createRealm, createUser, grant } from '../apps/server/src/modules/provisioning/accounts.ts';
import { openStore } from '../apps/server/src/store/db.ts';

const LINES = Number(process.argv[2] ?? 200_000);
const DAY = 86_400;
const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-bench-activity-'));
const store = await openStore(loadConfig({ ATALAYA_DATA_DIR: dataDir, DATABASE_URL: process.env.DATABASE_URL ?? '' }));

const realms: { id: number; items: { id: number; reference: string }[]; user: number }[] = [];
for (let r = 0; r < 30; r++) {
  const name = `bench${r}.test`;
  const realm = await createRealm(store, name);
  const user = await createUser(store, name, 'lector', 'una-clave-larga');
  const items = [];
  for (let i = 0; i < 40; i++) {
    const item = await createItem(store, { realm: name, reference: `item${i}-r${r}.es`, domain: true, service: 'normal' });
    items.push({ id: item.id, reference: item.reference });
    if (r === 0 && i % 2 === 0) await grant(store, name, 'lector', item.reference, { service_dnszone: 'read', domain_dns: 'read' });
  }
  realms.push({ id: realm.id, items, user: user.id });
}

const now = Math.floor(Date.now() / 1000);
const BATCH = 500;
for (let done = 0; done < LINES; done += BATCH) {
  const rows = Array.from({ length: Math.min(BATCH, LINES - done) }, (_, k) => {
    const n = done + k;
    const realm = realms[n % realms.length];
    const item = realm.items[n % realm.items.length];
    return {
      at: now - (n % 365) * DAY - (n % 86_000),
      realm_id: realm.id,
      user_id: realm.user,
      action: 'dns.create',
      outcome: 'success',
      ip: `192.0.2.${n % 250}`,
      agent: 'Firefox',
      item_id: item.id,
      reference: item.reference,
      area: AREAS[n % AREAS.length],
      changes: JSON.stringify([{ field: 'value', before: null, after: `203.0.113.${n % 250}` }]),
    };
  });
  await store.insertInto('audit_event').values(rows).execute();
}

const reader = { id: realms[0].user, realmId: realms[0].id };
const today = new Date().toISOString().slice(0, 10);
const monthAgo = new Date((now - 30 * DAY) * 1000).toISOString().slice(0, 10);
const cases: [string, Parameters<typeof filteredEvents>[1], number][] = [
  ['no filter, page 1', {}, 1],
  ['item', { item: realms[0].items[0].id }, 1],
  ['area', { area: 'service_dnszone' }, 1],
  ['actor', { actor: 'lector' }, 1],
  ['last 30 days', { from: monthAgo, to: today }, 1],
  ['no filter, page 50', {}, 50],
];
console.log(`${LINES} lines, ${store.kind}; reader of 20 of 40 items of one realm, 2 areas`);
for (const [name, filters, page] of cases) {
  const times: number[] = [];
  let total = 0;
  for (let run = 0; run < 15; run++) {
    const t = performance.now();
    total = (await eventPage(visibleTo(store, filteredEvents(store, filters), reader), page)).total;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(20)} median ${times[7].toFixed(1)} ms, max ${times.at(-1)!.toFixed(1)} ms (${total} matching)`);
}
await store.destroy();
