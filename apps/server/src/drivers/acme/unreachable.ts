import { PermanentJobError } from '../../outbox/permanent.ts';

/**
 * The ACME server cannot be reached at all: refused, no such host, no route, a certificate not
 * trusted, or no answer after acme-client's own retries. Trying again at once changes nothing until
 * the server is back or `acme.directoryUrl` fixed, so the job ends failed at once with this reason
 * on the site (decision 055); asking for the certificate again, or the renewal sweep's back-off,
 * tries again.
 */
export class CaUnreachable extends PermanentJobError {
  readonly key = 'sites.acme_error_unreachable';
  readonly params: { url: string; detail: string };
  constructor(url: string, detail: string) {
    super(`the certificate authority at ${url} cannot be reached (${detail})`);
    this.params = { url, detail };
  }
}
