import { API_BASE, type Envelope, ENVELOPE_HEADER, REQUEST_HEADER, STATUS_NO_SESSION } from '@atalaya/contract';

/** A refused call: the HTTP status, the envelope's status code and its translated messages. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly statusCode: number;
  readonly errors: string[];
  readonly inputs: string[];
  constructor(status: number, system?: Envelope['system']) {
    // Spec §8: 404 gives '404', 500 gives '500', otherwise the first system error, or 'error'.
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

export type Fields = Record<string, string | number | boolean | File | (string | number)[] | undefined | null>;

let onSessionExpired: (() => Promise<void>) | null = null;
/** The shell registers the login modal here: it resolves once the user has signed in again. */
export const setSessionExpiredHandler = (handler: (() => Promise<void>) | null) => {
  onSessionExpired = handler;
};
let forcedLanguage: string | undefined;
export const setRequestLanguage = (language: string | undefined) => {
  forcedLanguage = language;
};

function toBody(fields: Fields): URLSearchParams | FormData {
  const hasFile = Object.values(fields).some((v) => typeof v === 'object' && v !== null && !Array.isArray(v));
  const body = hasFile ? new FormData() : new URLSearchParams();
  const entries = Object.entries({ ...fields, language: forcedLanguage });
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

/** One call to /p247/: the envelope unwrapped; on status 101 the login modal opens and the call is replayed. */
export async function call<T>(method: 'GET' | 'POST', path: string, fields?: Fields, replayed = false): Promise<ApiResult<T>> {
  const url = `${API_BASE}${path.replace(/^\//, '')}`;
  const response = await fetch(method === 'GET' && fields ? `${url}?${toBody(fields)}` : url, {
    method,
    credentials: 'same-origin',
    headers: { [REQUEST_HEADER]: '1' },
    body: method === 'POST' && fields ? toBody(fields) : undefined,
  });
  const envelope = await envelopeOf<T>(response);
  if (envelope?.system.statusCode === STATUS_NO_SESSION && onSessionExpired && !replayed) {
    await onSessionExpired();
    return call<T>(method, path, fields, true);
  }
  return unwrap(response, envelope);
}

const envelopeOf = async <T>(response: Response): Promise<Envelope<T> | undefined> =>
  response.headers.get(ENVELOPE_HEADER) ? await response.json().catch(() => undefined) : undefined;

function unwrap<T>(response: Response, envelope: Envelope<T> | undefined): ApiResult<T> {
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

export const get = <T>(path: string, params?: Fields) => call<T>('GET', path, params).then((r) => r.data);
export const post = <T>(path: string, fields?: Fields) => call<T>('POST', path, fields ?? {}).then((r) => r.data);
