import { PermanentJobError } from '../../../outbox/permanent.ts';

/** ACME problem types (RFC 8555 §6.7) the panel translates; any other shows the server's words. */
const KNOWN = new Set(['dns', 'connection', 'unauthorized', 'incorrectResponse', 'caa', 'rateLimited', 'rejectedIdentifier']);
const PREFIX = 'urn:ietf:params:acme:error:';

/**
 * The ACME server refused an authorisation: the reason as a message key of the contract with its
 * parameters (stored on the site, translated when shown). The job ends failed at once: the order
 * is invalid, and trying again the same way only spends the account's failed-validation limit.
 */
export class AcmeRefusal extends PermanentJobError {
  readonly key: string;
  readonly params: { name: string; detail: string };
  constructor(problem: { type?: string; detail?: string } | undefined, name: string) {
    const type = problem?.type?.startsWith(PREFIX) ? problem.type.slice(PREFIX.length) : '';
    const detail = (problem?.detail ?? 'no reason given').replace(/\s+/g, ' ').slice(0, 500);
    super(`${name}: ${problem?.type ?? 'unknown problem'}: ${detail}`);
    this.key = KNOWN.has(type) ? `sites.acme_error_${type}` : 'sites.acme_error_other';
    this.params = { name, detail };
  }
}

/** A site's stored failure, `{ key, params }`; a row holding anything else reads as no failure. */
export function storedRefusal(json: string | null): { key: string; params: Record<string, string> } | null {
  if (!json) return null;
  try {
    const value = JSON.parse(json) as { key?: unknown; params?: unknown };
    return typeof value.key === 'string' ? { key: value.key, params: (value.params ?? {}) as Record<string, string> } : null;
  } catch {
    return null;
  }
}
