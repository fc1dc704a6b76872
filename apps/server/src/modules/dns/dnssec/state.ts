import type { ZoneDnssec } from '@atalaya/contract';
import type { DnssecState } from '../../../drivers/dns/dnssec.ts';
import { RegistryError } from '../../../drivers/registry/interface.ts';
import { ApiError } from '../../../http/errors.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import { DNSSEC_PLACE, DNSSEC_ROLL_ADD, DNSSEC_ROLL_CLEAN, DNSSEC_ROLL_SWAP, DNSSEC_SIGN, DNSSEC_UNSIGN, DNSSEC_WITHDRAW } from './jobs.ts';
import { heldFor } from './registrar.ts';

/** The zone's DNSSEC as the screen shows it: its state, the keys the server publishes, their DS and whether the registry holds each. */
export async function zoneDnssec({ store, drivers }: Runtime, itemId: number, zone: string, refuseUnknown = true): Promise<ZoneDnssec> {
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
  const { domain, held, unknown } = await registryDs({ drivers }, itemId);
  if (unknown && refuseUnknown) throw unknownAtRegistry(zone);
  const job = await store
    .selectFrom('job')
    .select('id')
    .where('item_id', '=', itemId)
    .where('kind', 'in', [DNSSEC_SIGN, DNSSEC_PLACE, DNSSEC_WITHDRAW, DNSSEC_UNSIGN, DNSSEC_ROLL_ADD, DNSSEC_ROLL_SWAP, DNSSEC_ROLL_CLEAN])
    .where('status', '!=', 'done')
    .orderBy('id', 'desc')
    .executeTakeFirst();
  // A step's DS on its way to the registry is the zone's pending work too (its registry change's job).
  const change = job
    ? undefined
    : await store
        .selectFrom('registry_change')
        .select('job_id as id')
        .where('item_id', '=', itemId)
        .where('action', '=', 'zoneDs')
        .where('state', 'in', ['queued', 'awaiting'])
        .orderBy('id', 'desc')
        .executeTakeFirst();
  return {
    state: row.dnssec as ZoneDnssec['state'],
    dueAt: row.dnssec_due_at,
    registrar: domain !== null && !unknown,
    keys: keys.map((k) => ({
      id: k.id,
      flags: k.flags,
      algorithm: k.algorithm,
      keyTag: k.keyTag,
      active: k.active,
      dnskey: `${k.flags} 3 ${k.algorithm} ${k.publicKey}`,
    })),
    ds: keys.flatMap((k) => k.ds.map((ds) => ({ ...ds, atRegistry: heldFor(held, k, ds) !== undefined }))),
    job: job?.id ?? change?.id ?? null,
  };
}

/**
 * The domain at its registry and the DNSSEC records it holds there. A registry that refuses to
 * answer about the domain because it does not know it (never registered there, or purged:
 * issue 44.9) is told apart, so the DNSSEC calls can say so rather than fail.
 */
export async function registryDs({ drivers }: Pick<Runtime, 'drivers'>, itemId: number) {
  const domain = await drivers.registry.info(itemId);
  if (!domain) return { domain, held: [], unknown: false };
  try {
    return { domain, held: await drivers.registry.listSecDns(itemId), unknown: false };
  } catch (error) {
    if (!(error instanceof RegistryError && error.code === 'not_found')) throw error;
    return { domain, held: [], unknown: true };
  }
}

/** The refusal of a DNSSEC call that needs the registry's view of a domain it does not know. */
export const unknownAtRegistry = (zone: string) => new ApiError(409, 'dns.dnssec_domain_unknown', { zone });
