import type { FastifyPluginAsync } from 'fastify';
import accountRoutes from './account/routes.ts';
import activityRoutes from './activity/routes.ts';
import backupsRoutes from './backups/routes.ts';
import configRoutes from './config/routes.ts';
import dnsRoutes from './dns/routes.ts';
import domainRoutes from './domain/routes.ts';
import expiryRoutes from './expiry/routes.ts';
import healthRoutes from './health/routes.ts';
import listRoutes from './lists/routes.ts';
import operatorRoutes from './operator/routes.ts';
import serviceRoutes from './service/routes.ts';
import sitesRoutes from './sites/routes.ts';

/** Every API module, mounted under /p247/. */
export const MODULES: FastifyPluginAsync[] = [
  healthRoutes,
  configRoutes,
  accountRoutes,
  domainRoutes,
  serviceRoutes,
  backupsRoutes,
  sitesRoutes,
  dnsRoutes,
  expiryRoutes,
  activityRoutes,
  listRoutes,
  operatorRoutes,
];
