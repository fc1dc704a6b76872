import { PhpForm, phpOptions, WebConstructorLoginForm } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FieldErrors } from '../../../http/errors.ts';
import { enqueueServiceSites } from '../../sites/state.ts';
import { serviceAccess, serviceAnyAccess } from '../access.ts';
import type { ServiceContext } from '../context.ts';
import { enqueueWeb } from '../jobs.ts';
import { constructorUrl } from './constructor.ts';
import { serviceView } from './view.ts';

const params = { params: z.object({ id: z.string() }) };
const LOG_LINES = 200;

/** The service main view: the service, parking, PHP, error log and the web constructor. */
export function mainRoutes(ctx: ServiceContext) {
  return async (plugin: FastifyInstance) => {
    const app = plugin.withTypeProvider<ZodTypeProvider>();

    app.get('/service/:id/', { schema: params }, async (request) => {
      const { access, service } = await serviceAnyAccess(request, request.params.id);
      return { data: { service: await serviceView(ctx, access, service) } };
    });

    for (const [path, active] of [['active', 1], ['disable', 0]] as const) {
      app.get(`/service/:id/parking/${path}/`, { schema: params }, async (request) => {
        const { access, service } = await serviceAccess(request, request.params.id, 'service_parking', 'write');
        const job = await ctx.store.transaction().execute(async (trx) => {
          await trx.updateTable('service').set({ parking_active: active }).where('item_id', '=', service.item_id).execute();
          await enqueueServiceSites(trx, service.item_id); // every vhost shows the parking page or not
          return enqueueWeb(trx, service.item_id);
        });
        const fresh = { ...service, parking_active: active, job_id: job };
        return { data: { service: await serviceView(ctx, access, fresh) }, info: [{ key: active ? 'service.parking_enabled' : 'service.parking_disabled' }], job };
      });
    }

    app.post('/service/:id/php/', { schema: { ...params, body: PhpForm } }, async (request) => {
      const { access, service } = await serviceAccess(request, request.params.id, 'service', 'write');
      const { phpVersion } = request.body;
      if (service.kind === 'parking') throw FieldErrors.one('phpVersion', 'service.parking_no_php');
      if (!phpOptions(service.php_min_version).includes(phpVersion)) throw FieldErrors.one('phpVersion', 'service.php_not_allowed');
      const job = await ctx.store.transaction().execute(async (trx) => {
        await trx.updateTable('service').set({ php_version: phpVersion }).where('item_id', '=', service.item_id).execute();
        await enqueueServiceSites(trx, service.item_id); // every vhost points at the new PHP-FPM socket
        return enqueueWeb(trx, service.item_id);
      });
      const fresh = { ...service, php_version: phpVersion, job_id: job };
      return { data: { service: await serviceView(ctx, access, fresh) }, info: [{ key: 'service.php_changed' }], job };
    });

    app.get('/service/:id/logerror/', { schema: params }, async (request) => {
      const { access } = await serviceAccess(request, request.params.id, 'service', 'read');
      const logs = await ctx.drivers.web.errorLog(access.reference, LOG_LINES);
      return { data: { logs: [...logs].sort((a, b) => b.ts - a.ts) } };
    });

    app.get('/service/:id/webconstructor/', { schema: params }, async (request) => {
      const { service } = await serviceAccess(request, request.params.id, 'service', 'read');
      return { data: { folder: service.webconstructor_folder } };
    });

    app.post('/service/:id/webcontructorlogin/', { schema: { ...params, body: WebConstructorLoginForm } }, async (request) => {
      const { access, service } = await serviceAccess(request, request.params.id, 'service', 'write');
      const { subdomain } = request.body;
      const claims = { service: service.item_id, reference: access.reference, subdomain };
      return { data: { url: constructorUrl(ctx.secrets, ctx.config.hosting.webConstructorUrl, claims) } };
    });
  };
}
