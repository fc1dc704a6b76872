import type { Secrets } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import { type DnssecState, dsOf, ECDSAP256SHA256, KSK_FLAGS, newSigningKey } from './dnssec.ts';
import { type DnsDriver, type RRset, SOA_TIMERS, SOA_TTL, txtContent } from './interface.ts';

async function servedZone(store: Store, zone: string) {
  const row = await store
    .selectFrom('dns_zone')
    .innerJoin('item', 'item.id', 'dns_zone.item_id')
    .select(['dns_zone.item_id', 'dns_zone.served'])
    .where('item.reference', '=', zone)
    .executeTakeFirst();
  if (!row) throw new Error(`zone ${zone} is not served`);
  return row;
}

/** No DNS server: what would be served is kept in the store (dns_zone.served), for the panel and tests. */
export function localDnsDriver(store: Store, secrets: Secrets): DnsDriver {
  /** The zone's keys as a signed zone publishes them: one combined key (CSK), its DS from its DNSKEY. */
  async function keysOf(zone: string, itemId: number): Promise<DnssecState> {
    const rows = await store.selectFrom('dns_key').selectAll().where('item_id', '=', itemId).orderBy('id').execute();
    const keys = rows.map((k) => {
      const ds = dsOf(zone, k.flags, k.algorithm, k.public_key);
      return {
        id: String(k.id),
        flags: k.flags,
        algorithm: k.algorithm,
        publicKey: k.public_key,
        keyTag: ds.keyTag,
        active: k.active === 1,
        ds: [ds],
      };
    });
    return { signed: keys.some((k) => k.active), keys };
  }
  /** A real ECDSA P-256 key pair, the private half sealed: nothing signs here, but the DS is the one a server with this key would need. */
  async function insertKey(itemId: number, active: boolean) {
    const key = newSigningKey();
    await store
      .insertInto('dns_key')
      .values({
        item_id: itemId,
        flags: KSK_FLAGS,
        algorithm: ECDSAP256SHA256,
        public_key: key.publicKey,
        private_sealed: secrets.encrypt(key.privatePem),
        active: active ? 1 : 0,
        created_at: now(),
      })
      .execute();
  }
  return {
    kind: 'local',
    async applyZone(state) {
      const served = JSON.stringify(state.rrsets);
      await store.updateTable('dns_zone').set({ served }).where('item_id', '=', state.itemId).execute();
    },
    async removeZone(zone) {
      const row = await store
        .selectFrom('dns_zone')
        .innerJoin('item', 'item.id', 'dns_zone.item_id')
        .select('dns_zone.item_id')
        .where('item.reference', '=', zone)
        .executeTakeFirst();
      if (!row) return;
      await store.deleteFrom('dns_key').where('item_id', '=', row.item_id).execute();
      await store.updateTable('dns_zone').set({ served: null }).where('item_id', '=', row.item_id).execute();
    },
    /** The patched RRsets replace their namesakes in what the zone is said to serve (`dns_zone.served`). */
    async patchRRsets(zone, rrsets, gone) {
      const row = await servedZone(store, zone);
      const replaced = new Set([...rrsets, ...gone].map((s) => `${s.name} ${s.type}`));
      const served = (JSON.parse(row.served ?? '[]') as RRset[]).filter((s) => !replaced.has(`${s.name} ${s.type}`));
      await store
        .updateTable('dns_zone')
        .set({ served: JSON.stringify([...served, ...rrsets]) })
        .where('item_id', '=', row.item_id)
        .execute();
    },
    /** The TXT RRset joins what the zone is said to serve (`dns_zone.served`). */
    async setTxt(zone, name, values) {
      const row = await servedZone(store, zone);
      const rrsets = (JSON.parse(row.served ?? '[]') as RRset[]).filter((s) => !(s.name === name && s.type === 'TXT'));
      if (values.length) rrsets.push({ name, type: 'TXT', ttl: 60, contents: values.map(txtContent) });
      await store
        .updateTable('dns_zone')
        .set({ served: JSON.stringify(rrsets) })
        .where('item_id', '=', row.item_id)
        .execute();
    },
    async sign(zone) {
      const { item_id } = await servedZone(store, zone);
      const state = await keysOf(zone, item_id);
      if (state.signed) return state;
      await insertKey(item_id, true);
      return keysOf(zone, item_id);
    },
    async addKey(zone) {
      const { item_id } = await servedZone(store, zone);
      const state = await keysOf(zone, item_id);
      if (state.keys.some((k) => !k.active)) return state;
      await insertKey(item_id, false);
      return keysOf(zone, item_id);
    },
    async swapKeys(zone) {
      const { item_id } = await servedZone(store, zone);
      const pending = (await keysOf(zone, item_id)).keys.find((k) => !k.active);
      if (pending) {
        await store.transaction().execute(async (trx) => {
          await trx.deleteFrom('dns_key').where('item_id', '=', item_id).where('id', '!=', Number(pending.id)).execute();
          await trx.updateTable('dns_key').set({ active: 1 }).where('id', '=', Number(pending.id)).execute();
        });
      }
      return keysOf(zone, item_id);
    },
    async unsign(zone) {
      const { item_id } = await servedZone(store, zone);
      await store.deleteFrom('dns_key').where('item_id', '=', item_id).execute();
    },
    /** The SOA a server would serve is the panel's own (SOA_TIMERS): its DNSKEY TTL and negative TTL follow from it. */
    async keyTtl() {
      return Math.max(SOA_TIMERS.minimum, Math.min(SOA_TTL, SOA_TIMERS.minimum));
    },
    async dnssec(zone) {
      return keysOf(zone, (await servedZone(store, zone)).item_id);
    },
  };
}
