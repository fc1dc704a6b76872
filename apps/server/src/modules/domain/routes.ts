import type { FastifyInstance } from 'fastify';
import bulkRoutes from './bulk-routes.ts';
import contactRoutes from './contacts-routes.ts';
import countryRoutes from './country-routes.ts';
import dnssecRoutes from './dnssec-routes.ts';
import glueRoutes from './glue-routes.ts';
import infoRoutes from './info-routes.ts';
import lifeRoutes from './life-routes.ts';
import nameServerRoutes from './nameserver-routes.ts';
import registerRoutes from './register-routes.ts';
import transferRoutes from './transfer-routes.ts';

/** The domain calls under /p247/ (docs/behaviour/shell-session-domains.md#calls): data, registration, toggles, auth code, DNS, glue, DNSSEC, contacts, transfers. */
export default async function domainRoutes(app: FastifyInstance) {
  await app.register(infoRoutes);
  await app.register(lifeRoutes);
  await app.register(registerRoutes);
  await app.register(transferRoutes);
  await app.register(nameServerRoutes);
  await app.register(glueRoutes);
  await app.register(dnssecRoutes);
  await app.register(contactRoutes);
  await app.register(countryRoutes);
  await app.register(bulkRoutes);
}
