import { dnsCreateSchema, dnsSaveSchema } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ConfigError } from '../../config/config.ts';
import { createDnsDriver, type DnsSettings, dnsSettings, storeKey } from '../../drivers/dns/index.ts';
import { notFound } from '../../http/errors.ts';
import { authorize } from '../permission/policy.ts';
import { createRecord, deleteAll, deleteRecord, restoreDefaults, saveRecord } from './actions.ts';
import { registerDnsTarget } from './apply.ts';
import { exportZone } from './bind.ts';
import { presenter } from './present.ts';
import { templateRecords } from './template.ts';
import { type DnsContext, ensureZone, loadRecords } from './zone.ts';
import { pathId } from '../../http/ids.ts';

const serviceParams = z.object({ id: z.string().max(20) });
const recordParams = z.object({ id: z.string().max(20), dnsId: z.string().max(20) });

/** A misconfigured template stops the start, not the first restore. */
function checkTemplate(settings: DnsSettings) {
  try {
    templateRecords(settings, 'example.com');
  } catch (error) {
    const field = (error as { fields?: { input: string; key: string }[] }).fields?.[0];
    throw new ConfigError(`Invalid configuration:\n  drivers.dns.template: ${field ? `${field.input} ${field.key}` : String(error)}`);
  }
}

/** The DNS zone calls under /p247/service/{id}/dns/ (spec §7); deletes, restore and delete-all are GET like the contract's other deletes. */
export default async function dnsRoutes(base: FastifyInstance) {
  const app = base.withTypeProvider<ZodTypeProvider>();
  const settings = dnsSettings(app.config);
  checkTemplate(settings);
  const ctx: DnsContext = { settings, target: storeKey(app.config) };
  const unregister = registerDnsTarget(ctx.target, app.store, createDnsDriver(settings, app.store));
  app.addHook('onClose', async () => unregister());

  /** Authorises the call on service_dnszone; only items with a hosting service have a zone. */
  async function openZone(request: FastifyRequest, rawId: string, level: 'read' | 'write') {
    const access = await authorize(request, pathId(rawId), 'service_dnszone', level);
    const service = await app.store.selectFrom('service').select('item_id').where('item_id', '=', access.itemId).executeTakeFirst();
    if (!service) throw notFound();
    const zone = await ensureZone(app.store, ctx, access.itemId, access.reference);
    return { itemId: access.itemId, zone: zone.name, version: zone.version };
  }

  app.get('/service/:id/dns/list/', { schema: { params: serviceParams } }, async (request) => {
    const { itemId, zone } = await openZone(request, request.params.id, 'read');
    const rows = await loadRecords(app.store, itemId);
    return { data: { dnss: rows.map(presenter(rows, zone)) } };
  });

  app.get('/service/:id/dns/export/', { schema: { params: serviceParams } }, async (request) => {
    const { itemId, zone, version } = await openZone(request, request.params.id, 'read');
    return { data: { zone, text: exportZone(await loadRecords(app.store, itemId), zone, version, settings) } };
  });

  app.get('/service/:id/dns/:dnsId/', { schema: { params: recordParams } }, async (request) => {
    const { itemId, zone } = await openZone(request, request.params.id, 'read');
    const rows = await loadRecords(app.store, itemId);
    const row = rows.find((r) => r.id === pathId(request.params.dnsId));
    if (!row) throw notFound();
    return { data: { dns: presenter(rows, zone)(row) } };
  });

  app.post('/service/:id/dns/create/', { schema: { params: serviceParams, body: dnsCreateSchema } }, async (request) => {
    const { itemId } = await openZone(request, request.params.id, 'write');
    const { result, job } = await createRecord(app.store, ctx, itemId, request.body);
    return { data: { dns: result }, info: [{ key: 'dns.created' }], job };
  });

  app.post('/service/:id/dns/:dnsId/save/', { schema: { params: recordParams, body: dnsSaveSchema } }, async (request) => {
    const { itemId } = await openZone(request, request.params.id, 'write');
    const { result, job } = await saveRecord(app.store, ctx, itemId, pathId(request.params.dnsId), request.body);
    return { data: { dns: result }, info: [{ key: 'dns.saved' }], job };
  });

  app.get('/service/:id/dns/:dnsId/delete/', { schema: { params: recordParams } }, async (request) => {
    const { itemId } = await openZone(request, request.params.id, 'write');
    const { job } = await deleteRecord(app.store, ctx, itemId, pathId(request.params.dnsId));
    return { data: null, info: [{ key: 'dns.deleted' }], job };
  });

  app.get('/service/:id/dns/restore/', { schema: { params: serviceParams } }, async (request) => {
    const { itemId } = await openZone(request, request.params.id, 'write');
    const { job } = await restoreDefaults(app.store, ctx, itemId);
    return { data: null, info: [{ key: 'dns.restored' }], job };
  });

  app.get('/service/:id/dns/delete/', { schema: { params: serviceParams } }, async (request) => {
    const { itemId } = await openZone(request, request.params.id, 'write');
    const { job } = await deleteAll(app.store, ctx, itemId);
    return { data: null, info: [{ key: 'dns.deleted_all' }], job };
  });
}
