/**
 * Jobs one area queues for another that it may not import (docs/architecture.md#the-areas-direction): the kind's
 * name lives here, its handler in the area that does the work, and the outbox carries it between
 * them in the caller's transaction as any other job.
 */

/**
 * The zone's MX records changed (dns/zone.ts): the item's MTA-STS site serves the policy naming
 * the new hosts (its handler is in sites/jobs.ts). Payload `{ siteId }`.
 */
export const SERVE_MTA_STS = 'sites.mta-sts.serve';
