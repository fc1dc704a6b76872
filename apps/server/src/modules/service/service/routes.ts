import { endpoints, phpOptions } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError, FieldErrors } from '../../../http/errors.ts';
import { route } from '../../../http/route.ts';
import { NodeAway, onItemNode } from '../../../nodes/remote.ts';
import { enqueueServiceSites } from '../../sites/state.ts';
import { enqueueWeb } from '../jobs.ts';
import { enqueueUsage } from '../usage.ts';
import { constructorUrl } from './constructor.ts';
import { serviceView } from './view.ts';

const LOG_LINES = 200;

/** The service main view: the service, parking, PHP, error log and the web constructor. */
export default async function mainRoutes(app: FastifyInstance) {
  const { runtime } = app;
  const { store, secrets, config, drivers } = runtime;
  route(app, endpoints.service.get, async (request) => {
    const { access } = request;
    const { service } = access;
    return { data: { service: await serviceView(runtime, access, service) } };
  });

  for (const [parking, active] of [
    [endpoints.service.parkingOn, 1],
    [endpoints.service.parkingOff, 0],
  ] as const) {
    route(app, parking, async (request) => {
      const { access } = request;
      const { service } = access;
      const job = await store.transaction().execute(async (trx) => {
        await trx.updateTable('service').set({ parking_active: active }).where('item_id', '=', service.item_id).execute();
        await enqueueServiceSites(trx, service.item_id); // every vhost shows the parking page or not
        return enqueueWeb(trx, service.item_id);
      });
      const fresh = { ...service, parking_active: active, job_id: job };
      return {
        data: { service: await serviceView(runtime, access, fresh) },
        info: [{ key: active ? 'service.parking_enabled' : 'service.parking_disabled' }],
        job,
      };
    });
  }

  route(app, endpoints.service.php, async (request) => {
    const { access } = request;
    const { service } = access;
    const { phpVersion } = request.body;
    if (service.kind === 'parking') throw FieldErrors.one('phpVersion', 'service.parking_no_php');
    if (!phpOptions(service.php_min_version).includes(phpVersion)) throw FieldErrors.one('phpVersion', 'service.php_not_allowed');
    const job = await store.transaction().execute(async (trx) => {
      await trx.updateTable('service').set({ php_version: phpVersion }).where('item_id', '=', service.item_id).execute();
      await enqueueServiceSites(trx, service.item_id); // every vhost points at the new PHP-FPM socket
      return enqueueWeb(trx, service.item_id);
    });
    const fresh = { ...service, php_version: phpVersion, job_id: job };
    return { data: { service: await serviceView(runtime, access, fresh) }, info: [{ key: 'service.php_changed' }], job };
  });

  route(app, endpoints.service.usageRefresh, async (request) => {
    const { service } = request.access;
    return { data: null, job: await enqueueUsage(store, service.item_id) };
  });

  route(app, endpoints.service.errorLog, async (request) => {
    const { access } = request;
    // Read where the service runs: its node's nginx log, through the agent.
    const logs = await onItemNode(runtime, access.itemId, () => drivers.web.errorLog(access.reference, LOG_LINES)).catch((error) => {
      if (error instanceof NodeAway) throw new ApiError(503, 'service.node_away');
      throw error;
    });
    return { data: { logs: [...logs].sort((a, b) => b.ts - a.ts) } };
  });

  route(app, endpoints.service.webConstructor, async (request) => {
    const { service } = request.access;
    return { data: { folder: service.webconstructor_folder } };
  });

  route(app, endpoints.service.webConstructorLogin, async (request) => {
    const { access } = request;
    const { service } = access;
    const { subdomain } = request.body;
    const claims = { service: service.item_id, reference: access.reference, subdomain };
    return { data: { url: constructorUrl(secrets, config.hosting.webConstructorUrl, claims) } };
  });
}
