import type { DnssecState } from '../../../drivers/dns/dnssec.ts';
import { dnsSettings } from '../../../drivers/dns/index.ts';
import { RegistryError } from '../../../drivers/registry/interface.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import type { JobHandlers } from '../../../outbox/outbox.ts';
import { PermanentJobError } from '../../../outbox/permanent.ts';
import { now } from '../../../store/db.ts';
import { dnssecTypeOf } from '../../domain/tld.ts';
import { heldFor, managedDs, secDnsOf } from './registrar.ts';

export const DNSSEC_SIGN = 'dns.dnssec.sign';
export const DNSSEC_PLACE = 'dns.dnssec.place';
export const DNSSEC_WITHDRAW = 'dns.dnssec.withdraw';
export const DNSSEC_UNSIGN = 'dns.dnssec.unsign';
export const DNSSEC_ROLL_ADD = 'dns.dnssec.roll-add';
export const DNSSEC_ROLL_SWAP = 'dns.dnssec.roll-swap';
export const DNSSEC_ROLL_CLEAN = 'dns.dnssec.roll-clean';

/** A waiting state, once its time has come: the state that follows and the job that takes it there. */
export const DUE_STEPS: Record<string, { next: string; kind: string }> = {
  publishing: { next: 'placing', kind: DNSSEC_PLACE },
  waiting: { next: 'unsigning', kind: DNSSEC_UNSIGN },
  'roll-waiting-ds': { next: 'roll-swapping', kind: DNSSEC_ROLL_SWAP },
  'roll-waiting-key': { next: 'roll-cleaning', kind: DNSSEC_ROLL_CLEAN },
};

export interface DnssecPayload {
  itemId: number;
  zone: string;
  nsec3?: boolean;
}

/** A domain the registry no longer knows will not come back by retrying. */
function permanentIfGone(error: unknown): never {
  if (error instanceof RegistryError && error.code === 'not_found') throw new PermanentJobError('the registry does not know the domain');
  throw error;
}

/**
 * The steps of signing (decision 034), each a job that reads the zone's `dnssec` state when it runs
 * and does nothing once a later switch moved it on: a sign after an unsign in the queue wins, and
 * so does the other way round.
 */
export function dnssecJobs({ store, drivers, config }: Runtime): JobHandlers {
  const { dsTtl } = dnsSettings(config);
  const stateOf = async (itemId: number) =>
    (await store.selectFrom('dns_zone').select('dnssec').where('item_id', '=', itemId).executeTakeFirst())?.dnssec;
  const setState = (itemId: number, from: string, to: string, dueAt: number | null = null) =>
    store
      .updateTable('dns_zone')
      .set({ dnssec: to, dnssec_due_at: dueAt })
      .where('item_id', '=', itemId)
      .where('dnssec', '=', from)
      .execute();

  /**
   * As the domain's registrar: the registry holds a DS for each key the zone has (placed and noted
   * as managed when missing), and none the panel placed for a key the zone no longer has.
   */
  async function matchRegistry(itemId: number, signed: DnssecState) {
    const domain = await drivers.registry.info(itemId);
    if (!domain) return;
    try {
      const type = dnssecTypeOf(domain.name);
      const held = await drivers.registry.listSecDns(itemId);
      const managed = await managedDs(store, itemId);
      const wanted = signed.keys.flatMap((key) => key.ds.map((ds) => ({ key, ds })));
      const kept = new Set<number>();
      for (const { key, ds } of wanted) {
        let id = heldFor(held, key, ds)?.id;
        if (id === undefined) id = await drivers.registry.addSecDns(itemId, secDnsOf(type, key, ds));
        kept.add(id);
        if (!managed.some((m) => m.ds_id === id)) {
          await store
            .insertInto('dns_managed_ds')
            .values({ item_id: itemId, ds_id: id, ...dsColumns(ds) })
            .execute();
        }
      }
      for (const stale of managed.filter((m) => !kept.has(m.ds_id))) {
        if (held.some((h) => h.id === stale.ds_id)) await drivers.registry.removeSecDns(itemId, stale.ds_id);
        await store.deleteFrom('dns_managed_ds').where('id', '=', stale.id).execute();
      }
    } catch (error) {
      permanentIfGone(error);
    }
  }

  return {
    /**
     * Signs the zone. As its registrar, the DS waits until the DNSKEY has been served for as long as
     * a resolver may keep an earlier answer (a "no DNSKEY" cached from before signing would make the
     * zone bogus beside a DS): the schedule places it once that time has passed.
     */
    [DNSSEC_SIGN]: async (raw) => {
      const { itemId, zone, nsec3 = false } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'signing') return;
      await drivers.dns.sign(zone, { nsec3 });
      if (!(await drivers.registry.info(itemId))) {
        await setState(itemId, 'signing', 'on');
        return;
      }
      await setState(itemId, 'signing', 'publishing', now() + (await drivers.dns.keyTtl(zone)));
    },

    /** The DNSKEY is known to every resolver that asked: the DS of each key goes to the registry. */
    [DNSSEC_PLACE]: async (raw) => {
      const { itemId, zone } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'placing') return;
      await matchRegistry(itemId, await drivers.dns.dnssec(zone));
      await setState(itemId, 'placing', 'on');
    },

    /** Roll, first step: a new key that does not sign yet, its DS beside the old one; then the DS's TTL. */
    [DNSSEC_ROLL_ADD]: async (raw) => {
      const { itemId, zone } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'roll-adding') return;
      await matchRegistry(itemId, await drivers.dns.addKey(zone));
      await setState(itemId, 'roll-adding', 'roll-waiting-ds', now() + dsTtl);
    },

    /** Roll, second step: every resolver can know the new DS, so the new key signs; then the old DNSKEY's TTL. */
    [DNSSEC_ROLL_SWAP]: async (raw) => {
      const { itemId, zone } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'roll-swapping') return;
      await drivers.dns.swapKeys(zone);
      await setState(itemId, 'roll-swapping', 'roll-waiting-key', now() + dsTtl);
    },

    /** Roll, last step: the old key is gone from every cache, so its DS goes. */
    [DNSSEC_ROLL_CLEAN]: async (raw) => {
      const { itemId, zone } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'roll-cleaning') return;
      await matchRegistry(itemId, await drivers.dns.dnssec(zone));
      await setState(itemId, 'roll-cleaning', 'on');
    },

    /** Withdraws the DS the panel placed, then waits the DS's TTL before unsigning (the schedule queues that). */
    [DNSSEC_WITHDRAW]: async (raw) => {
      const { itemId } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'withdrawing') return;
      for (const row of await managedDs(store, itemId)) {
        try {
          await drivers.registry.removeSecDns(itemId, row.ds_id);
        } catch (error) {
          // Already gone (removed at the registry some other way): nothing left to withdraw.
          if (!(error instanceof RegistryError && error.code === 'not_found')) throw error;
        }
        await store.deleteFrom('dns_managed_ds').where('id', '=', row.id).execute();
      }
      await setState(itemId, 'withdrawing', 'waiting', now() + dsTtl);
    },

    /** The DS has expired from every cache: the zone can stop signing without breaking the chain. */
    [DNSSEC_UNSIGN]: async (raw) => {
      const { itemId, zone } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'unsigning') return;
      await drivers.dns.unsign(zone);
      await setState(itemId, 'unsigning', 'off');
    },
  };
}

const dsColumns = (ds: { keyTag: number; algorithm: number; digestType: number; digest: string }) => ({
  key_tag: ds.keyTag,
  algorithm: ds.algorithm,
  digest_type: ds.digestType,
  digest: ds.digest,
});
