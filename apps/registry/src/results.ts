/** The result codes of RFC 5730 section 3 this registry answers with, and their standard messages. */
export const RESULT_MESSAGES: Record<number, string> = {
  1000: 'Command completed successfully',
  1001: 'Command completed successfully; action pending',
  1300: 'Command completed successfully; no messages',
  1301: 'Command completed successfully; ack to dequeue',
  1500: 'Command completed successfully; ending session',
  2000: 'Unknown command',
  2001: 'Command syntax error',
  2002: 'Command use error',
  2003: 'Required parameter missing',
  2004: 'Parameter value range error',
  2005: 'Parameter value syntax error',
  2100: 'Unimplemented protocol version',
  2101: 'Unimplemented command',
  2102: 'Unimplemented option',
  2103: 'Unimplemented extension',
  2200: 'Authentication error',
  2201: 'Authorization error',
  2202: 'Invalid authorization information',
  2300: 'Object pending transfer',
  2301: 'Object not pending transfer',
  2302: 'Object exists',
  2303: 'Object does not exist',
  2304: 'Object status prohibits operation',
  2305: 'Object association prohibits operation',
  2306: 'Parameter value policy error',
  2307: 'Unimplemented object service',
  2308: 'Data management policy violation',
  2400: 'Command failed',
  2500: 'Command failed; server closing connection',
  2501: 'Authentication error; server closing connection',
  2502: 'Session limit exceeded; server closing connection',
};

/** A command refused: the code, and the reason shown in `<extValue><reason>` (with the offending value when known). */
export class EppError extends Error {
  readonly code: number;
  readonly value?: string;
  constructor(code: number, reason: string, value?: string) {
    super(reason);
    this.code = code;
    this.value = value;
  }
}

export const fail = (code: number, reason: string, value?: string): never => {
  throw new EppError(code, reason, value);
};

/** Codes after which the server closes the connection (RFC 5730: 2500–2502, and 1500 for logout). */
export const closesSession = (code: number) => code === 1500 || (code >= 2500 && code <= 2502);
