import type { Envelope, SystemPart } from '@atalaya/contract';

export const MLC_VERSION = '1';

export function envelope<T>(data: T, system: Partial<SystemPart> = {}): Envelope<T> {
  return {
    system: {
      valid: true,
      errors: [],
      inputs: [],
      info: [],
      statusCode: 200,
      debug: [],
      job: null,
      mlcVer: MLC_VERSION,
      ...system,
    },
    data,
  };
}

/** What a handler returns: the data, plus optional info message keys and an outbox job id. */
export interface Answer<T> {
  data: T;
  info?: { key: string; params?: Record<string, string | number> }[];
  job?: number | null;
}
