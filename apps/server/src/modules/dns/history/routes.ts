import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { dnsSettings } from '../../../drivers/dns/index.ts';
import { pathId } from '../../../http/ids.ts';
import { route } from '../../../http/route.ts';
import { zoneOf } from '../access.ts';
import { authorOf, type KeptRecord } from './record.ts';
import { revertChange } from './revert.ts';
import { rrsetView } from './view.ts';

/** A zone's history: its latest changes, each with the RRsets before and after, and their revert. */
export default async function historyRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  const settings = dnsSettings(config);
  const zones = { settings };

  route(app, endpoints.dns.history, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const rows = await store.selectFrom('dns_change').selectAll().where('item_id', '=', itemId).orderBy('id', 'desc').execute();
    const reverted = new Set(rows.flatMap((r) => (r.reverts === null ? [] : [r.reverts])));
    const sets = (json: string) => rrsetView(JSON.parse(json) as KeptRecord[], zone, settings.defaultTtl);
    return {
      data: {
        changes: rows.map((r) => ({
          id: r.id,
          at: r.at,
          kind: r.kind,
          by: r.by,
          before: sets(r.before),
          after: sets(r.after),
          reverts: r.reverts,
          reverted: reverted.has(r.id),
        })),
      },
    };
  });

  route(app, endpoints.dns.revert, async (request) => {
    const { itemId } = await zoneOf(request, zones);
    const { by } = authorOf(request, 'revert');
    const { job } = await revertChange(store, itemId, pathId(request.params.changeId), { by });
    return { data: null, info: [{ key: 'dns.reverted' }], job };
  });
}
