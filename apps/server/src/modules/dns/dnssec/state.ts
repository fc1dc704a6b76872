import type { ZoneDnssec } from '@atalaya/contract';
import type { DnssecState } from '../../../drivers/dns/dnssec.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import { DNSSEC_PLACE, DNSSEC_ROLL_ADD, DNSSEC_ROLL_CLEAN, DNSSEC_ROLL_SWAP, DNSSEC_SIGN, DNSSEC_UNSIGN, DNSSEC_WITHDRAW } from './jobs.ts';
import { heldFor } from './registrar.ts';

/** The zone's DNSSEC as the screen shows it: its state, the keys the server publishes, their DS and whether the registry holds each. */
export async function zoneDnssec({ store, drivers }: Runtime, itemId: number, zone: string): Promise<ZoneDnssec> {
  const row = await store
    .selectFrom('dns_zone')
    .select(['dnssec', 'dnssec_due_at'])
    .where('item_id', '=', itemId)
    .executeTakeFirstOrThrow();
  let keys: DnssecState['keys'] = [];
  if (row.dnssec !== 'off') {
    try {
      keys = (await drivers.dns.dnssec(zone)).keys;
    } catch {
      // The server does not serve the zone yet (its first apply is queued): no keys to show.
    }
  }
  const domain = await drivers.registry.info(itemId);
  const held = domain ? await drivers.registry.listSecDns(itemId) : [];
  const job = await store
    .selectFrom('job')
    .select('id')
    .where('item_id', '=', itemId)
    .where('kind', 'in', [DNSSEC_SIGN, DNSSEC_PLACE, DNSSEC_WITHDRAW, DNSSEC_UNSIGN, DNSSEC_ROLL_ADD, DNSSEC_ROLL_SWAP, DNSSEC_ROLL_CLEAN])
    .where('status', '!=', 'done')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  return {
    state: row.dnssec as ZoneDnssec['state'],
    dueAt: row.dnssec_due_at,
    registrar: domain !== null,
    keys: keys.map((k) => ({
      id: k.id,
      flags: k.flags,
      algorithm: k.algorithm,
      keyTag: k.keyTag,
      active: k.active,
      dnskey: `${k.flags} 3 ${k.algorithm} ${k.publicKey}`,
    })),
    ds: keys.flatMap((k) => k.ds.map((ds) => ({ ...ds, atRegistry: heldFor(held, k, ds) !== undefined }))),
    job: job?.id ?? null,
  };
}
