import type { FastifyPluginAsync } from 'fastify';
import configRoutes from './config/routes.ts';

/** Every API module, mounted under /p247/. Each issue adds its module here. */
export const MODULES: FastifyPluginAsync[] = [configRoutes];
