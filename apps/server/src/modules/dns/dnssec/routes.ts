import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { dnsSettings } from '../../../drivers/dns/index.ts';
import { ApiError } from '../../../http/errors.ts';
import { route } from '../../../http/route.ts';
import { enqueue } from '../../../outbox/outbox.ts';
import { managedDs } from '../../domain/managed-ds.ts';
import { zoneOf } from '../access.ts';
import { DNSSEC_ROLL_ADD, DNSSEC_SIGN, DNSSEC_WITHDRAW, type DnssecPayload } from './jobs.ts';
import { registryDs, unknownAtRegistry, zoneDnssec } from './state.ts';

const OFF_STATES = new Set(['off', 'withdrawing', 'waiting', 'unsigning']);

/** The zone's DNSSEC switch (decision 034): on signs and places the DS; off withdraws the DS, waits its TTL, then unsigns. */
export default async function dnssecRoutes(app: FastifyInstance) {
  const { store, config, drivers } = app.runtime;
  const zones = { settings: dnsSettings(config) };

  route(app, endpoints.dns.dnssec, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    return { data: await zoneDnssec(app.runtime, itemId, zone) };
  });

  /**
   * Turning off with a DS the panel did not place still at the registry (or, when the panel is not
   * the registrar, one it cannot see) would leave resolvers a DS with no signed zone behind it: the
   * domain stops resolving for them. That needs `confirm`; the DS the panel placed it withdraws itself.
   */
  async function unmanagedDs(itemId: number) {
    const { domain, held, unknown } = await registryDs({ drivers }, itemId);
    if (!domain || unknown) return { registrar: false, count: 0, unknown };
    const managed = new Set((await managedDs(store, itemId)).map((m) => m.ds_id));
    return { registrar: true, count: held.filter((d) => !managed.has(d.id)).length, unknown };
  }

  route(app, endpoints.dns.dnssecSwitch, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const { enabled, nsec3, confirm } = request.body;
    const { dnssec: before } = await store.selectFrom('dns_zone').select('dnssec').where('item_id', '=', itemId).executeTakeFirstOrThrow();
    // Signing, signed or rolling keys count as on; withdrawing, waiting and unsigning as off.
    const on = !OFF_STATES.has(before);
    // Signing places a DS at the registry: refused before anything changes when the registry does not know the domain.
    if (enabled && !on && (await registryDs({ drivers }, itemId)).unknown) throw unknownAtRegistry(zone);
    if (Boolean(enabled) !== on) {
      if (!enabled && confirm !== 1) {
        const { registrar, count } = await unmanagedDs(itemId);
        if (!registrar) throw new ApiError(409, 'dns.dnssec_confirm_elsewhere', { zone });
        if (count > 0) throw new ApiError(409, 'dns.dnssec_confirm_ds', { zone, count });
      }
      const next = enabled ? 'signing' : 'withdrawing';
      await store.transaction().execute(async (trx) => {
        await trx.updateTable('dns_zone').set({ dnssec: next, dnssec_due_at: null }).where('item_id', '=', itemId).execute();
        const payload: DnssecPayload = { itemId, zone, ...(enabled && nsec3 ? { nsec3: true } : {}) };
        await enqueue(trx, enabled ? DNSSEC_SIGN : DNSSEC_WITHDRAW, payload, itemId, { on: 'panel' });
      });
    }
    // Turning off needs nothing of the registry: a domain it does not know shows as registered elsewhere.
    const data = await zoneDnssec(app.runtime, itemId, zone, false);
    return { data, info: [{ key: enabled ? 'dns.dnssec_on' : 'dns.dnssec_off' }], job: data.job };
  });

  /** A key roll, double DS: the new key's DS first, the key switch once that DS's TTL passed, the old DS once the old key's. */
  route(app, endpoints.dns.dnssecRoll, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const started = await store.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('dns_zone')
        .set({ dnssec: 'roll-adding', dnssec_due_at: null })
        .where('item_id', '=', itemId)
        .where('dnssec', '=', 'on')
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      const payload: DnssecPayload = { itemId, zone };
      await enqueue(trx, DNSSEC_ROLL_ADD, payload, itemId, { on: 'panel' });
      return true;
    });
    if (!started) throw new ApiError(409, 'dns.dnssec_roll_not_on');
    const data = await zoneDnssec(app.runtime, itemId, zone);
    return { data, info: [{ key: 'dns.dnssec_roll_started' }], job: data.job };
  });
}
