import type { FastifyInstance } from 'fastify';
import ddbbRoutes from './ddbb/routes.ts';
import ftpRoutes from './ftp/routes.ts';
import accountRoutes from './mail/account-routes.ts';
import aliasRoutes from './mail/alias-routes.ts';
import dkimRoutes from './mail/dkim-routes.ts';
import mailHealthRoutes from './mail/health-routes.ts';
import retryRoutes from './retry-routes.ts';
import mainRoutes from './service/routes.ts';

/** The service calls under /p247/: main view, mail accounts and aliases, FTP users, databases, retries. */
export default async function serviceRoutes(app: FastifyInstance) {
  await app.register(mainRoutes);
  await app.register(accountRoutes);
  await app.register(dkimRoutes);
  await app.register(mailHealthRoutes);
  await app.register(aliasRoutes);
  await app.register(ftpRoutes);
  await app.register(ddbbRoutes);
  await app.register(retryRoutes);
}
