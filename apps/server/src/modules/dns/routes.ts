import { type DnsRecord, endpoints, PAGE_SIZE } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../../config/config.ts';
import { type DnsSettings, dnsSettings } from '../../drivers/dns/index.ts';
import { noteChanges } from '../../http/actor.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { route } from '../../http/route.ts';
import { zoneOf } from './access.ts';
import { createRecord, deleteAll, deleteRecord, restoreDefaults, saveRecord } from './actions.ts';
import { exportZone, streamZone } from './bind.ts';
import checkRoutes from './check/routes.ts';
import dnssecRoutes from './dnssec/routes.ts';
import { authorOf } from './history/record.ts';
import historyRoutes from './history/routes.ts';
import importRoutes from './import/routes.ts';
import { publishedWithZone } from './mail-records.ts';
import { recordPage } from './page.ts';
import { presenter } from './present.ts';
import { loadRecords } from './record-store.ts';
import { zoneBackend } from './state.ts';
import { templateRecords } from './template.ts';
import type { DnsContext } from './zone.ts';

/** A misconfigured template stops the start, not the first restore. */
function checkTemplate(settings: DnsSettings) {
  try {
    templateRecords(settings, 'example.com');
  } catch (error) {
    const field = (error as { fields?: { input: string; key: string }[] }).fields?.[0];
    throw new ConfigError(`Invalid configuration:\n  drivers.dns.template: ${field ? `${field.input} ${field.key}` : String(error)}`);
  }
}

/** The DNS zone calls (endpoints.dns); deletes, restore and delete-all are GET like the contract's other deletes. */
export default async function dnsRoutes(app: FastifyInstance) {
  const { store, config } = app.runtime;
  const settings = dnsSettings(config);
  checkTemplate(settings);
  const zones: DnsContext = { settings, published: publishedWithZone(config) };
  await app.register(importRoutes);
  await app.register(historyRoutes);
  await app.register(dnssecRoutes);
  await app.register(checkRoutes);

  /** A record as the activity log shows it, before → after (decision 023). */
  const recordView = (r: DnsRecord) => ({ zona: r.zona, type: r.type, ttl: r.ttl, priority: r.priority, value: r.value });
  async function recordBefore(itemId: number, zone: string, rawId: string) {
    const rows = await loadRecords(store, itemId);
    const row = rows.find((r) => r.id === pathId(rawId));
    return row ? recordView(presenter(rows, zone)(row)) : null;
  }

  route(app, endpoints.dns.list, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const { page, filter, type } = request.query;
    const backend = await zoneBackend(store, itemId);
    if (page === undefined) {
      const rows = await loadRecords(store, itemId);
      return { data: { dnss: rows.map(presenter(rows, zone)), ...backend } };
    }
    const found = await recordPage(store, itemId, { page, filter, type });
    const present = presenter([...found.context, ...found.page.filter((r) => !found.context.some((c) => c.id === r.id))], zone);
    return { data: { dnss: found.page.map(present), total: found.total, page, pageSize: PAGE_SIZE, ...backend } };
  });

  route(app, endpoints.dns.export, async (request) => {
    const { itemId, zone, version } = await zoneOf(request, zones);
    return { data: { zone, text: exportZone(await loadRecords(store, itemId), zone, version, settings) } };
  });

  route(app, endpoints.dns.exportFile, async (request, reply) => {
    const { itemId, zone, version } = await zoneOf(request, zones);
    return reply
      .header('content-type', 'text/dns; charset=utf-8')
      .header('content-disposition', `attachment; filename="${zone}.zone"`)
      .send(streamZone(store, itemId, zone, version, settings));
  });

  route(app, endpoints.dns.get, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const rows = await loadRecords(store, itemId);
    const row = rows.find((r) => r.id === pathId(request.params.dnsId));
    if (!row) throw notFound();
    return { data: { dns: presenter(rows, zone)(row) } };
  });

  route(app, endpoints.dns.create, async (request) => {
    const { itemId } = await zoneOf(request, zones);
    const { result, job } = await createRecord(store, itemId, request.body, authorOf(request, 'create'));
    noteChanges(request, null, recordView(result));
    return { data: { dns: result }, info: [{ key: 'dns.created' }], job };
  });

  route(app, endpoints.dns.save, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const before = await recordBefore(itemId, zone, request.params.dnsId);
    const { result, job } = await saveRecord(store, itemId, pathId(request.params.dnsId), request.body, authorOf(request, 'save'));
    noteChanges(request, before, recordView(result), ['zona', 'type']);
    return { data: { dns: result }, info: [{ key: 'dns.saved' }], job };
  });

  route(app, endpoints.dns.delete, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    const before = await recordBefore(itemId, zone, request.params.dnsId);
    const { job } = await deleteRecord(store, itemId, pathId(request.params.dnsId), authorOf(request, 'delete'));
    noteChanges(request, before, null);
    return { data: null, info: [{ key: 'dns.deleted' }], job };
  });

  route(app, endpoints.dns.restore, async (request) => {
    const { itemId } = await zoneOf(request, zones);
    const { job } = await restoreDefaults(store, zones, itemId, authorOf(request, 'restore'));
    return { data: null, info: [{ key: 'dns.restored' }], job };
  });

  route(app, endpoints.dns.deleteAll, async (request) => {
    const { itemId, zone } = await zoneOf(request, zones);
    if (request.query.confirm !== 1) throw new ApiError(409, 'dns.confirm_delete_all', { zone });
    const { job } = await deleteAll(store, itemId, authorOf(request, 'delete-all'));
    return { data: null, info: [{ key: 'dns.deleted_all' }], job };
  });
}
