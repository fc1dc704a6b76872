import type { DnssecState } from '../../../drivers/dns/dnssec.ts';
import { dnsSettings } from '../../../drivers/dns/index.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import type { JobHandlers } from '../../../outbox/outbox.ts';
import { now } from '../../../store/db.ts';
import type { Payloads } from '../../domain/actions.ts';
import { queueRegistryChange } from '../../domain/changes.ts';
import { dnssecTypeOf } from '../../domain/tld.ts';
import { secDnsOf } from './registrar.ts';

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
   * As the domain's registrar, the DS records the zone's keys want go to the registry as a registry
   * change (decision 052: every registry write through the one queue), which moves the zone on to
   * `step.to` once the registry holds them. A zone of no domain has no registry: it moves on now.
   */
  async function matchRegistry(itemId: number, signed: DnssecState | null, step: Payloads['zoneDs']['step']) {
    const domain = await store.selectFrom('domain').select('name').where('item_id', '=', itemId).executeTakeFirst();
    if (!domain) {
      await setState(itemId, step.from, step.to, step.waitSeconds === null ? null : now() + step.waitSeconds);
      return;
    }
    const type = dnssecTypeOf(domain.name);
    const wanted = (signed?.keys ?? []).flatMap((key) =>
      key.ds.map((ds) => ({
        data: secDnsOf(type, key, ds),
        ds: { keyTag: ds.keyTag, algorithm: ds.algorithm, digestType: ds.digestType, digest: ds.digest },
      })),
    );
    const payload: Payloads['zoneDs'] = { wanted, step };
    await store.transaction().execute((trx) => queueRegistryChange(trx, { itemId, action: 'zoneDs', payload }));
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
      await matchRegistry(itemId, await drivers.dns.dnssec(zone), { from: 'placing', to: 'on', waitSeconds: null });
    },

    /** Roll, first step: a new key that does not sign yet, its DS beside the old one; then the DS's TTL. */
    [DNSSEC_ROLL_ADD]: async (raw) => {
      const { itemId, zone } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'roll-adding') return;
      await matchRegistry(itemId, await drivers.dns.addKey(zone), { from: 'roll-adding', to: 'roll-waiting-ds', waitSeconds: dsTtl });
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
      await matchRegistry(itemId, await drivers.dns.dnssec(zone), { from: 'roll-cleaning', to: 'on', waitSeconds: null });
    },

    /** Withdraws the DS the panel placed, then waits the DS's TTL before unsigning (the schedule queues that). */
    [DNSSEC_WITHDRAW]: async (raw) => {
      const { itemId } = raw as DnssecPayload;
      if ((await stateOf(itemId)) !== 'withdrawing') return;
      await matchRegistry(itemId, null, { from: 'withdrawing', to: 'waiting', waitSeconds: dsTtl });
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
