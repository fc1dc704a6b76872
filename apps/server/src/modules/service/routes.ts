import type { FastifyInstance } from 'fastify';
import { createContext } from './context.ts';
import { ddbbRoutes } from './ddbb/routes.ts';
import { ftpRoutes } from './ftp/routes.ts';
import './jobs.ts';
import { accountRoutes } from './mail/accounts.ts';
import { aliasRoutes } from './mail/aliases.ts';
import { mainRoutes } from './service/routes.ts';

/** The service calls under /p247/: main view, mail accounts and aliases, FTP users, databases. */
export default async function serviceRoutes(app: FastifyInstance) {
  const ctx = createContext(app.store, app.config, app.secrets);
  for (const routes of [mainRoutes, accountRoutes, aliasRoutes, ftpRoutes, ddbbRoutes]) await app.register(routes(ctx));
}
