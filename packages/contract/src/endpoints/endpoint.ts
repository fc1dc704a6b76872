/** One call of the API: what the server registers and the web calls, declared once. */
import { z } from 'zod';
import type { OperatorScope } from '../operator.ts';
import type { Area } from '../permissions.ts';

/**
 * Who may make a call, the one place it is said: the server's `route()` authorises every call from
 * it and the web shows or hides an action by it.
 * - public: 'read' is a side-effect-free GET that needs no CSRF header, 'form' a public call with effects;
 * - session: any signed-in user (`enrolling`: also while the user must still enrol a second factor);
 * - area and level on the item in the path (`alsoWrite`: write on these areas too; `normalOnly`:
 *   the item's hosting service must be a normal one, since a parking service has no sites);
 * - anyOf: a level on one of these areas of the item, the call's loader narrowing to the one it
 *   touches (`tokenArea`: an API token needs this area itself, not merely one of the others);
 * - operator: an operator token holding this scope (decision 037); no session nor customer token
 *   reaches it, and an operator token reaches nothing else.
 */
export type Permission =
  | { public: 'read' | 'form' }
  | { session: true; enrolling?: true }
  | { area: Area; level: 'read' | 'write'; alsoWrite?: readonly Area[]; normalOnly?: true }
  | { anyOf: readonly Area[]; level: 'read' | 'write'; tokenArea?: Area }
  | { operator: OperatorScope };

/** An answer that is not the JSON envelope: a file (its content type) or the WebSocket upgrade. */
export type RawAnswer = { file: string } | { socket: true } | { document: true };

export interface Endpoint<
  P extends z.ZodType = z.ZodType,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  A extends z.ZodType | RawAnswer = z.ZodType | RawAnswer,
> {
  method: 'GET' | 'POST';
  /** Under API_BASE, with `:name` path parameters, e.g. `/service/:id/dns/list/`. */
  path: string;
  params: P;
  query: Q;
  body: B;
  /** The schema of `data` inside the envelope, or a raw answer. */
  answer: A;
  permission: Permission;
  /**
   * A call that manages the account itself (sign-in and out, password, preferences, tokens):
   * only a browser session reaches it, never an API token (refused with 403).
   */
  sessionOnly?: true;
  /** Bytes the body may hold, when a call needs more than the app's 256 KiB (a zone import). */
  bodyLimit?: number;
}

const NO_PARAMS = z.object({});

/** Declares an endpoint; params default to none, query and body to absent. */
export function endpoint<
  const M extends 'GET' | 'POST',
  A extends z.ZodType | RawAnswer,
  const W extends Permission,
  P extends z.ZodType = typeof NO_PARAMS,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: {
  method: M;
  path: string;
  params?: P;
  query?: Q;
  body?: B;
  answer: A;
  permission: W;
  sessionOnly?: true;
  bodyLimit?: number;
}): Omit<Endpoint<P, Q, B, A>, 'permission'> & { permission: W } {
  // The permission keeps its literal type: the server types what a call's route hands its handler by it.
  return {
    method: spec.method,
    path: spec.path,
    params: (spec.params ?? NO_PARAMS) as P,
    query: spec.query as Q,
    body: spec.body as B,
    answer: spec.answer,
    permission: spec.permission,
    ...(spec.sessionOnly ? { sessionOnly: true as const } : {}),
    ...(spec.bodyLimit ? { bodyLimit: spec.bodyLimit } : {}),
  };
}

/** The route id of an item or child: any text up to 20 characters, so a malformed id answers 404 like a foreign one. */
export const pathId = z.string().max(20);
export const itemParams = z.object({ id: z.string() });
export const SIGNED_IN = { session: true } as const;
/** Signed in, and open to a user who must still enrol a second factor before anything else (decision 021). */
export const ENROLLING = { session: true, enrolling: true } as const;

export const isRawAnswer = (answer: z.ZodType | RawAnswer): answer is RawAnswer => !(answer instanceof z.ZodType);

/** The data of a JSON answer, as the caller reads it. */
export type AnswerOf<E extends Endpoint> = E['answer'] extends z.ZodType ? z.output<E['answer']> : never;
/** The request fields of a call by name (the body of a POST, the query of a GET), as the caller sends them. */
export type RequestOf<E extends Endpoint> = E['body'] extends z.ZodType
  ? z.input<E['body']>
  : E['query'] extends z.ZodType
    ? z.input<E['query']>
    : Record<string, never>;
/** The path parameters as the caller passes them (numbers or text). */
export type ParamsOf<E extends Endpoint> = { [K in keyof z.input<E['params']>]: string | number };

// In a module of its own, without zod: the web's sign-in page fills paths and loads no schema.
export { pathOf } from './path.ts';

/** The envelope's system part, as every JSON answer carries it. */
export const systemSchema = z.object({
  valid: z.boolean(),
  errors: z.array(z.string()),
  inputs: z.array(z.string()),
  info: z.array(z.string()),
  statusCode: z.number(),
  debug: z.array(z.string()),
  job: z.number().nullable(),
  mlcVer: z.string(),
});
export const envelopeSchema = <T extends z.ZodType>(data: T) => z.object({ system: systemSchema, data });
