import type { Envelope, SystemPart } from '@atalaya/contract';
import { frozen } from './serializer.ts';

export const MLC_VERSION = '1';

function systemPart(system: Partial<SystemPart>): SystemPart {
  return { valid: true, errors: [], inputs: [], info: [], statusCode: 200, debug: [], job: null, mlcVer: MLC_VERSION, ...system };
}

/**
 * The system part of every plain success (no message, no job): one frozen object shared by those
 * answers, so the serializer checks and writes it once instead of once per answer (decision 024).
 */
const SUCCESS = frozen(systemPart({}));

/** An answer in the envelope; without `system`, a plain success. */
export function envelope<T>(data: T, system?: Partial<SystemPart>): Envelope<T> {
  return { system: system ? systemPart(system) : SUCCESS, data };
}

/** What a handler returns: the data, plus optional info message keys and an outbox job id. */
export interface Answer<T> {
  data: T;
  info?: { key: string; params?: Record<string, string | number> }[];
  job?: number | null;
}
