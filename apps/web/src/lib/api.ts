import {
  type AnswerOf,
  API_BASE,
  ENVELOPE_HEADER,
  type Endpoint,
  type Envelope,
  type ParamsOf,
  pathOf,
  REQUEST_HEADER,
  type RequestOf,
  STATUS_NO_SESSION,
} from '@atalaya/contract';
import type { Route } from './endpoints.ts';
import { logDebug } from './errors.ts';

/** A refused call: the HTTP status, the envelope's status code and its translated messages. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly errors: string[];
  readonly inputs: string[];
  constructor(status: number, system?: Envelope['system']) {
    // docs/behaviour/shell-session-domains.md#errors: 404 gives '404', 500 gives '500', otherwise the first system error, or 'error'.
    const message = status === 404 ? '404' : status >= 500 ? '500' : (system?.errors[0] ?? 'error');
    super(message);
    this.status = status;
    this.statusCode = system?.statusCode ?? status;
    this.errors = system?.errors ?? [];
    this.inputs = system?.inputs ?? [];
  }
  /** The server's message for one field ('Error' when it named the field but said nothing). */
  fieldError(input: string): string | undefined {
    const index = this.inputs.indexOf(input);
    return index < 0 ? undefined : (this.errors[index] ?? 'Error');
  }
}

type Fields = Record<string, string | number | boolean | File | (string | number)[] | undefined | null>;

let onSessionExpired: (() => Promise<void>) | null = null;
/** The shell registers the login modal here: it resolves once the user has signed in again. */
export const setSessionExpiredHandler = (handler: (() => Promise<void>) | null) => {
  onSessionExpired = handler;
};

function toBody(fields: Fields): URLSearchParams | FormData {
  const hasFile = Object.values(fields).some((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  const body = hasFile ? new FormData() : new URLSearchParams();
  const entries = Object.entries(fields);
  for (const [key, value] of entries) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) body.append(`${key}[]`, String(v));
    else if (typeof value === 'object') (body as FormData).append(key, value);
    else body.append(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return body;
}

export interface ApiResult<T> {
  data: T;
  info: string[];
  job: number | null;
}

type FieldValue = Fields[string];
/** The contract's declaration behind a call of lib/endpoints.ts (or the declaration itself). */
export type DeclarationOf<E extends Endpoint | Route> = E extends Endpoint ? E : E extends Route<infer D> ? D : never;
/** The form fields of a call, named as its request schema names them; values travel as form text. */
export type FormOf<E extends Endpoint | Route> = { [K in keyof RequestOf<DeclarationOf<E>>]?: FieldValue };

/** The URL of a call of the endpoint table, path parameters filled in. */
export const urlOf = <E extends Endpoint>(e: Route<E>, params: ParamsOf<E>) => `${API_BASE.slice(0, -1)}${pathOf(e, params)}`;

function send<E extends Endpoint>(e: Route<E>, params: ParamsOf<E>, fields?: FormOf<E>): Promise<Response> {
  const url = urlOf(e, params);
  const form = fields as Fields | undefined;
  return fetch(e.method === 'GET' && form ? `${url}?${toBody(form)}` : url, {
    method: e.method,
    credentials: 'same-origin',
    headers: { [REQUEST_HEADER]: '1' },
    body: e.method === 'POST' ? toBody(form ?? {}) : undefined,
  });
}

/** Status 101: the login modal opens; true once the user has signed in again and the call may be replayed. */
async function signedInAgain(envelope: Envelope<unknown> | undefined, replayed: boolean): Promise<boolean> {
  if (envelope?.system.statusCode !== STATUS_NO_SESSION || !onSessionExpired || replayed) return false;
  await onSessionExpired();
  return true;
}

/**
 * One call of the endpoint table: the envelope unwrapped; on status 101 the login modal opens and
 * the call is replayed (unless `replayed`: the sign-in page's own calls never open it).
 */
export async function call<E extends Endpoint>(
  e: Route<E>,
  params: ParamsOf<E>,
  fields?: FormOf<E>,
  replayed = false,
): Promise<ApiResult<AnswerOf<E>>> {
  const response = await send(e, params, fields);
  const envelope = await envelopeOf<AnswerOf<E>>(response);
  if (await signedInAgain(envelope, replayed)) return call(e, params, fields, true);
  return unwrap(response, envelope);
}

/** A file the server sent, with the name it gave it ("Backup" when it gave none). */
export interface DownloadedFile {
  name: string;
  blob: Blob;
}

/**
 * A call whose answer is a file (the database dump, a backup's folder): sent and replayed like
 * call()'s, status 101 included, its fields in the query as a GET's are; a refusal comes in the
 * envelope and throws the same ApiFailure, and any answer outside 200–299 is a failure
 * (docs/behaviour/service-area-dns.md#errors).
 */
export async function download<E extends Endpoint>(
  e: Route<E>,
  params: ParamsOf<E>,
  fields?: FormOf<E>,
  replayed = false,
): Promise<DownloadedFile> {
  const response = await send(e, params, fields);
  if (response.headers.get(ENVELOPE_HEADER) || !response.ok) {
    const envelope = await envelopeOf<unknown>(response);
    if (await signedInAgain(envelope, replayed)) return download(e, params, fields, true);
    unwrap(response, envelope);
    // A valid envelope where a file was due is no file either.
    throw new ApiFailure(response.status, envelope?.system);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'Backup';
  return { name, blob: await response.blob() };
}

/** The data of a call, for queries. */
export const fetchData = <E extends Endpoint>(e: Route<E>, params: ParamsOf<E>, fields?: FormOf<E>) =>
  call(e, params, fields).then((r) => r.data);

const envelopeOf = async <T>(response: Response): Promise<Envelope<T> | undefined> =>
  response.headers.get(ENVELOPE_HEADER) ? await response.json().catch(() => undefined) : undefined;

/**
 * An answer without the envelope (an HTML page from a proxy or a gateway, a bare error) is a failure
 * by its HTTP status, whatever that status says: its text is never shown.
 */
function unwrap<T>(response: Response, envelope: Envelope<T> | undefined): ApiResult<T> {
  logDebug(envelope?.system.debug);
  if (!response.ok || !envelope?.system.valid) throw new ApiFailure(response.status, envelope?.system);
  return { data: envelope.data, info: envelope.system.info, job: envelope.system.job };
}

/**
 * The answer to a call the entry sent before this module loaded (lib/startupCalls.ts), read like
 * call()'s but never replayed: at start-up a missing session only means "not signed in".
 */
export async function answerOf<T>(sent: Promise<Response>): Promise<ApiResult<T>> {
  const response = await sent;
  return unwrap(response, await envelopeOf<T>(response));
}
