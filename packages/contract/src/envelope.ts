/** The answer of every /p247/ call (docs/design.md#api). */
export interface SystemPart {
  valid: boolean;
  errors: string[];
  inputs: string[];
  info: string[];
  statusCode: number;
  debug: string[];
  job: number | null;
  mlcVer: string;
}
export interface Envelope<T = unknown> {
  system: SystemPart;
  data: T;
}
/** Session missing or expired: the SPA opens the login modal and replays the call. */
export const STATUS_NO_SESSION = 101;
/** Header that marks a JSON envelope answer, and the header every SPA call must carry. */
export const ENVELOPE_HEADER = 'x-dd';
export const REQUEST_HEADER = 'x-dd-request';
export const API_BASE = '/p247/';
