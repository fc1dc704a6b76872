import { type Endpoint, endpoints, envelopeSchema, isRawAnswer, type Permission } from '@atalaya/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordActivity } from '../modules/activity/record.ts';
import { diff } from '../modules/activity/redact.ts';
import { idempotent } from '../modules/operator/idempotency.ts';
import { type AccessOf, accessFor } from '../modules/permission/access.ts';
import { actorOf } from './actor.ts';
import type { Answer } from './envelope.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The endpoint-table entry this route was registered from (the table test walks them). */
    endpoint?: Endpoint;
    /** The permission the table declares for the call. */
    permission?: Permission;
  }
  interface FastifyRequest {
    /** What the call's route authorised from its entry (typed per entry in EndpointRequest). */
    access: unknown;
  }
}

type Input<S> = S extends z.ZodType ? z.output<S> : undefined;
/** A call's request: its fields as the entry's schemas give them, and the access its route checked. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: z.output<E['params']>;
  Querystring: Input<E['query']>;
  Body: Input<E['body']>;
}> & { access: AccessOf<E['permission']> };
/** A JSON endpoint's handler returns its data (and info, job); a raw one sends through the reply. */
type Returned<E extends Endpoint> = E['answer'] extends z.ZodType ? Answer<z.input<E['answer']>> : FastifyReply;
export type EndpointHandler<E extends Endpoint> = (request: EndpointRequest<E>, reply: FastifyReply) => Promise<Returned<E>>;

/** The OpenAPI answer of a call: the envelope around its data schema, or the file's content type. */
function responseOf(e: Endpoint) {
  if (!isRawAnswer(e.answer)) return { 200: envelopeSchema(e.answer) };
  if ('file' in e.answer) return { 200: { description: 'The file', content: { [e.answer.file]: { schema: z.string() } } } };
  return undefined;
}

/**
 * How the OpenAPI document says a call is authenticated: public calls need nothing, the ones that
 * manage the account itself only the session cookie, every other one the cookie or a bearer token.
 */
function securityOf(e: Endpoint) {
  if ('public' in e.permission) return [];
  if ('operator' in e.permission) return [{ operator: [] }];
  return e.sessionOnly ? [{ session: [] }] : [{ bearer: [] }, { session: [] }];
}

/** Whether the endpoint's path names parameters (`/service/:id/`), which its params schema checks. */
export const hasPathParams = (e: Endpoint) => e.path.includes('/:');

/** The route options of an endpoint: method, url, schemas (answer included) and the config the guard reads. */
export function routeOptions(e: Endpoint, extra: Partial<RouteOptions> = {}): RouteOptions {
  const hidden = isRawAnswer(e.answer) && !('file' in e.answer);
  return {
    method: e.method,
    url: e.path,
    ...(e.bodyLimit ? { bodyLimit: e.bodyLimit } : {}),
    ...extra,
    config: {
      endpoint: e,
      permission: e.permission,
      ...('public' in e.permission ? { public: e.permission.public } : {}),
      ...(isRawAnswer(e.answer) && 'socket' in e.answer ? { websocket: true } : {}),
    },
    schema: {
      // A path without parameters has nothing to check: the empty schema cost every such call a
      // zod parse and its garbage (decision 024).
      ...(hasPathParams(e) ? { params: e.params } : {}),
      ...(e.query ? { querystring: e.query } : {}),
      ...(e.body ? { body: e.body } : {}),
      ...(hidden ? { hide: true } : { response: responseOf(e), security: securityOf(e) }),
      ...('operator' in e.permission ? { tags: ['operator'] } : {}),
    },
  } as RouteOptions;
}

/** Each call's name in the table (`dns.create`): the action the activity log records. */
const NAMES = new Map<Endpoint, string>(
  Object.entries(endpoints).flatMap(([area, calls]) => Object.entries(calls).map(([name, e]) => [e as Endpoint, `${area}.${name}`])),
);

/** A call that needs write on an item's area changes it: the activity log records it (decision 023). */
const changesAnItem = (e: Endpoint) => 'level' in e.permission && e.permission.level === 'write';
/** An operator call that changes something: recorded like an item change, and idempotent by its key. */
const operatorWrite = (e: Endpoint) => 'operator' in e.permission && e.method === 'POST';

/**
 * Records a successful change: who, from where, the item and area its opener authorised, and the
 * before → after its handler noted; a handler that noted nothing gets the fields it was sent (the
 * path's child id included), so every change says what it was asked to do.
 */
async function recordCall(request: FastifyRequest, e: Endpoint) {
  const note = request.activity;
  const { id: _item, ...params } = (request.params ?? {}) as Record<string, unknown>;
  const sent = { ...params, ...((request.body ?? {}) as Record<string, unknown>) };
  await recordActivity(request.server.runtime.store, {
    ...actorOf(request),
    action: NAMES.get(e) ?? e.path,
    item: note?.item ?? null,
    area: note?.area ?? '',
    changes: note?.changes.length ? note.changes : diff(null, sent),
  });
}

/**
 * Registers one call of the endpoint table. The entry is the call's whole authorisation: before the
 * handler runs, the caller is checked against its permission and the item loaded
 * (`request.access`), so no handler names an area or a level. A call that needs write, or that
 * discloses a credential (write too), is recorded in the activity log once it succeeds.
 */
export function route<E extends Endpoint>(app: FastifyInstance, e: E, handler: NoInfer<EndpointHandler<E>>) {
  const { permission } = e;
  const recorded = changesAnItem(e) || operatorWrite(e);
  const once = operatorWrite(e);
  const authorised = async (request: EndpointRequest<E>, reply: FastifyReply) => {
    request.access = (await accessFor(request, permission)) as AccessOf<E['permission']>;
    const run = () => handler(request, reply);
    const answer = once ? await idempotent(request.server.runtime.store, request, reply, run) : await run();
    // A replayed answer changed nothing this time: the first request was recorded.
    if (recorded && !reply.hasHeader('idempotent-replayed')) await recordCall(request, e);
    return answer;
  };
  app.withTypeProvider<ZodTypeProvider>().route({ ...routeOptions(e), handler: authorised as never });
}
