import type { FastifyInstance } from 'fastify';
import { contactRoutes } from './routes-contacts.ts';
import { countryRoutes } from './routes-country.ts';
import { dnsRoutes } from './routes-dns.ts';
import { dnssecRoutes } from './routes-dnssec.ts';
import { glueRoutes } from './routes-glue.ts';
import { infoRoutes } from './routes-info.ts';
import { registryDriver } from '../../drivers/registry/index.ts';

/** The domain calls under /p247/ (spec §7): data, toggles, auth code, DNS, glue, DNSSEC, contacts. */
export default async function domainRoutes(app: FastifyInstance) {
  // A misconfigured registry driver stops the start instead of failing the first call.
  registryDriver(app.config, app.store, app.secrets);
  for (const routes of [infoRoutes, dnsRoutes, glueRoutes, dnssecRoutes, contactRoutes, countryRoutes]) await routes(app);
}
