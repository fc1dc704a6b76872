import { endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { registerDomain, renewDomain, transferInDomain } from './domains.ts';
import { domainAvailable, refusedAs422 } from './provision.ts';

/** The domain operations a billing system starts: availability, registration, renewal and a transfer in. */
export default async function domainRoutes(app: FastifyInstance) {
  const { store, config, secrets, drivers } = app.runtime;

  route(app, endpoints.operator.domainCheck, async (request) => ({
    data: await refusedAs422(() => domainAvailable(store, request.query.name)),
  }));

  route(app, endpoints.operator.domainRegister, async (request) => {
    const { name, available } = await refusedAs422(() => domainAvailable(store, request.body.name));
    if (!available) throw new ApiError(422, 'operator.domain_taken', { name });
    return {
      data: await refusedAs422(() =>
        registerDomain({ store, config, waitSeconds: config.jobs.waitSeconds }, request.body, request.operator!.id),
      ),
    };
  });

  route(app, endpoints.operator.domainRenew, async (request) => ({
    data: await renewDomain(
      { store, registry: drivers.registry, waitSeconds: config.jobs.waitSeconds },
      request.operator!.id,
      request.body,
    ),
  }));

  route(app, endpoints.operator.domainTransfer, async (request) => ({
    data: await refusedAs422(() => transferInDomain({ store, registry: drivers.registry, secrets }, request.body)),
  }));
}
