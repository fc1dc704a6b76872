import { RegistryError, type RegistryErrorCode } from '../interface.ts';
import type { EppResponse } from './response.ts';

/** The refusals a customer can act on, by EPP result code (RFC 5730 §3). */
const REFUSALS: Record<number, RegistryErrorCode> = {
  2201: 'authorization', // authorization error
  2202: 'authorization', // invalid authorization information
  2106: 'exists', // the object is already sponsored by this client (a transfer request)
  2300: 'blocked', // object pending transfer
  2301: 'blocked', // object not pending transfer
  2302: 'exists',
  2303: 'not_found',
  2304: 'blocked', // object status prohibits operation
  2305: 'in_use', // object association prohibits operation
  2003: 'policy', // required parameter missing
  2004: 'policy', // parameter value range error
  2005: 'policy', // parameter value syntax error
  2306: 'policy', // parameter value policy error
  2308: 'policy', // data management policy violation
};

/** A failure of the registry or of the driver itself: the operator's business, retried by the caller. */
export class EppFailure extends Error {
  readonly result: number;
  constructor(command: string, response: Pick<EppResponse, 'code' | 'message'>) {
    super(`epp: ${command} failed with ${response.code} ${response.message}`);
    this.result = response.code;
  }
}

/** The error a failed response becomes: a RegistryError with the registry's words, else an EppFailure. */
export function refusalOf(command: string, response: EppResponse): Error {
  const code = REFUSALS[response.code];
  return code ? new RegistryError(code, '', { reason: response.message, result: response.code }) : new EppFailure(command, response);
}
