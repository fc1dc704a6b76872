import type { ExpiryState } from '@atalaya/contract';

/**
 * A domain's life at its registry after expiry (RFC 3915's periods, as gTLD registries and the
 * test registry keep them): renewable in the renewal grace, then deleted by the registry and
 * restorable in redemption, then only waiting to be purged.
 */

export interface Lifecycle {
  state: ExpiryState;
  /** When this state ends (Unix seconds): the expiry date while active, the deletion, the end of redemption, the purge. */
  until: number;
}

/** The registry's periods and the longest renewal it takes; the epp driver reads them from its options. */
export interface LifePolicy {
  maxYears: number;
  graceDays: number;
  redemptionDays: number;
  pendingDeleteDays: number;
}

export const DEFAULT_LIFE_POLICY: LifePolicy = { maxYears: 10, graceDays: 45, redemptionDays: 30, pendingDeleteDays: 5 };

const DAY = 86_400;

/** The state a domain that expires at `expireAt` is in at `at`, when nothing but the clock acts on it (the local registry). */
export function lifecycleAt(expireAt: number, at: number, policy: LifePolicy): Lifecycle {
  const deletion = expireAt + policy.graceDays * DAY;
  const redemptionEnd = deletion + policy.redemptionDays * DAY;
  if (at < expireAt) return { state: 'active', until: expireAt };
  if (at < deletion) return { state: 'grace', until: deletion };
  if (at < redemptionEnd) return { state: 'redemption', until: redemptionEnd };
  const purge = redemptionEnd + policy.pendingDeleteDays * DAY;
  if (at < purge) return { state: 'pendingDelete', until: purge };
  return { state: 'purged', until: 0 };
}

/**
 * The state an EPP registry reports: rgp `autoRenewPeriod` past expiry, `redemptionPeriod` or
 * `pendingRestore` after its deletion (the registry's `upDate` is when it deleted the domain), and
 * `pendingDelete` when it can no longer be restored.
 */
export function lifecycleFromRgp(rgp: string, expireAt: number, updatedAt: number, policy: LifePolicy): Lifecycle {
  if (rgp === 'autoRenewPeriod') return { state: 'grace', until: expireAt + policy.graceDays * DAY };
  if (rgp === 'redemptionPeriod' || rgp === 'pendingRestore')
    return { state: 'redemption', until: updatedAt + policy.redemptionDays * DAY };
  if (rgp === 'pendingDelete')
    return { state: 'pendingDelete', until: updatedAt + (policy.redemptionDays + policy.pendingDeleteDays) * DAY };
  return { state: 'active', until: expireAt };
}

/** The UTC calendar day of a Unix time, as EPP's curExpDate writes it. */
export const dayOf = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

/** Years added to a date the way registries add them (same day and month). */
export function addYears(seconds: number, years: number): number {
  const date = new Date(seconds * 1000);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return Math.floor(date.getTime() / 1000);
}
