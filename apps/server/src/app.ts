import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API_BASE, endpoints } from '@atalaya/contract';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import websocket from '@fastify/websocket';
import Fastify from 'fastify';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config/config.ts';
import { answerFrameworkError, registerEnvelope } from './http/answers.ts';
import { parseUrlEncoded } from './http/forms.ts';
import { registerGuard } from './http/guard.ts';
import { multipartParser } from './http/multipart.ts';
import { PUBLIC_IMAGE, PUBLIC_IMAGE_CACHE } from './http/page-logo.ts';
import { routeOptions } from './http/route.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { answerSerializer } from './http/serializer.ts';
import { zodValidator } from './http/validation.ts';
import type { Runtime } from './kernel/runtime.ts';
import { type Logger, requestLogging } from './logger.ts';
import { MODULES } from './modules/index.ts';
import type { SessionUser } from './modules/permission/caller.ts';
import { type AuthCache, createAuthCache } from './modules/session/auth-cache.ts';
import { SESSION_COOKIE } from './modules/session/sessions.ts';
import type { JobHandlers } from './outbox/outbox.ts';
import { createRuntime } from './runtime.ts';
import type { Store } from './store/db.ts';

declare module 'fastify' {
  interface FastifyInstance {
    authCache: AuthCache;
    runtime: Runtime;
  }
  interface FastifyRequest {
    user: SessionUser | null;
  }
}

export interface AppOptions {
  config: Config;
  store: Store;
  /** A pino logger; tests run silent. */
  logger?: Logger;
  /** The outbox worker and the schedules; tests turn them off and drain the jobs themselves. */
  worker?: boolean;
  /** Job kinds beyond the areas': tests add their probes here, never the product. */
  testJobs?: (runtime: Runtime) => JobHandlers;
  /** The built SPA; default ATALAYA_WEB_DIST, else apps/web/dist. */
  webDist?: string;
}

// ATALAYA_WEB_DIST lets parallel browser-test runs serve their own build.
const WEB_DIST = process.env.ATALAYA_WEB_DIST ?? path.resolve(fileURLToPath(import.meta.url), '../../../web/dist');
export const BODY_LIMIT = 256 * 1024;
/** Vite's content-hashed build output (and its .br/.gz twins) never changes under its name. */
const HASHED_ASSET = /[/\\]assets[/\\][^/\\]+-[\w-]{8}\.\w+(\.br|\.gz)?$/;

/** The whole server as one Fastify instance; server.ts only opens the store and listens. */
export async function buildApp(options: AppOptions) {
  const { config, store, logger } = options;
  const app = Fastify({
    ...requestLogging(logger),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    frameworkErrors: answerFrameworkError,
  }).withTypeProvider<ZodTypeProvider>();

  const runtime = createRuntime(
    config,
    store,
    (err, context) => app.log.error({ err, ...context }, context ? `schedule ${context.schedule} failed` : 'background work failed'),
    app.log,
  );
  if (options.testJobs) runtime.outbox.register(options.testJobs(runtime));
  app.decorate('runtime', runtime);
  app.decorate('authCache', createAuthCache(store, config));
  app.setValidatorCompiler(zodValidator);
  // Answers are written from the endpoint table's schemas: only the declared fields leave.
  app.setSerializerCompiler(answerSerializer);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, parseUrlEncoded(body as string)),
  );
  app.addContentTypeParser('multipart/form-data', multipartParser(BODY_LIMIT));
  await app.register(cookie);
  registerSecurityHeaders(app);
  await app.register(websocket, { options: { maxPayload: 4096 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Atalaya API', version: '1' },
      servers: [{ url: API_BASE.slice(0, -1) }],
      tags: [{ name: 'operator', description: 'The operator API for billing systems (docs/operator-api.md)' }],
      components: {
        securitySchemes: {
          operator: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An operator token (ato_…) created with `npm run admin -- operator-token-create`: only the calls tagged operator accept it (docs/operator-api.md)',
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              'An API token (atl_…) created in Preferences or with `npm run admin -- token-create`; no cookie or x-dd-request header needed',
          },
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The browser session; every call but public GETs also needs the header x-dd-request: 1',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
  });

  // While closing, in-flight answers end their keep-alive connection so close() does not wait on it.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });

  registerGuard(app);
  registerEnvelope(app);

  await app.register(
    async (api) => {
      api.route({ ...routeOptions(endpoints.config.openapi), handler: async () => app.swagger() });
      for (const module of MODULES) await api.register(module);
    },
    { prefix: API_BASE.slice(0, -1) },
  );

  if (options.worker !== false) {
    await runtime.outbox.requeueInterrupted();
    const stopWorker = runtime.outbox.start();
    const stopSchedules = runtime.scheduler.start();
    app.addHook('onClose', async () => {
      stopWorker();
      await Promise.all([stopSchedules(), runtime.outbox.stopped()]);
    });
  }
  app.addHook('onClose', async () => runtime.close());

  const webDist = options.webDist ?? WEB_DIST;
  if (existsSync(webDist)) {
    await app.register(fastifyStatic, {
      root: webDist,
      // Looked up per request, so a rebuilt SPA is served without a restart; a miss falls through
      // to the not-found handler (the SPA for page routes, 404 for assets).
      wildcard: true,
      index: false,
      // The build writes .br and .gz next to each asset: serving them saves compressing on every request
      // and sends the smallest file the browser accepts.
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, file) {
        reply.header(
          'cache-control',
          HASHED_ASSET.test(file) ? 'public, max-age=31536000, immutable' : PUBLIC_IMAGE.test(file) ? PUBLIC_IMAGE_CACHE : 'no-cache',
        );
      },
    });
    // The root is a directory to the static files, which list none: the SPA answers it like any page.
    app.get('/', (_request, reply) => reply.callNotFound());
  }
  return app;
}
