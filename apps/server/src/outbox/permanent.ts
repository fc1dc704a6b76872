/**
 * A failure that trying again cannot change: a path refused because it leaves its root, an unsafe
 * archive, a name a backend would never accept, an ACME server's verdict on a challenge. A job
 * whose handler throws one ends `failed` at once with this message instead of being retried
 * (docs/decisions/028-outbox-liveness.md). Drivers throw it too: it lives below both.
 */
export class PermanentJobError extends Error {}
