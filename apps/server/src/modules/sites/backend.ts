import type { BackendState } from '@atalaya/contract';
import { backendState, type JobNode, waitingFor, withJobNode } from '../../kernel/job-state.ts';
import type { Store } from '../../store/db.ts';
import { APPLY_JOB, apexKey, siteKey } from './state.ts';

export interface HostBackend {
  state: BackendState;
  job: number | null;
  /** The hosting node its change waits for (decision 040). */
  waitingFor?: string;
}
type Applies = Map<string, { id: number; status: string } & JobNode>;

/**
 * The latest apply job of each host of a service, by host key. Each job converges its host on the
 * store as a whole, so the latest one alone says whether the web server holds the host as shown
 * (an older failure is superseded by a later success). The payload is `{ key }` alone
 * (enqueueApply), so one payload is one host.
 */
export async function hostApplies(store: Store, serviceId: number): Promise<Applies> {
  const latest = store
    .selectFrom('job')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('item_id', '=', serviceId)
    .where('kind', '=', APPLY_JOB)
    .groupBy('payload');
  const rows = await store
    .selectFrom('job')
    .$call(withJobNode)
    .select(['job.id', 'job.status', 'job.payload'])
    .where('job.id', 'in', latest)
    .execute();
  return new Map(rows.map(({ payload, ...job }) => [String((JSON.parse(payload) as { key?: unknown }).key), job]));
}

/** A site's state from its host's latest apply; a site never applied (none queued yet) is ready. */
export function siteBackend(applies: Applies, siteId: number): HostBackend {
  const job = applies.get(siteKey(siteId));
  return { state: backendState(0, job?.status), job: job?.id ?? null, ...(job ? waitingFor(job.status, job) : {}) };
}

/**
 * The hosts of removed sites, as one: a removal the web server refused leaves the host served while
 * the site is gone from the list, so the list says so apart (failed first, then pending).
 */
export function removedBackend(applies: Applies, serviceId: number, siteIds: number[]): HostBackend {
  // The bare domain's host is no removed site (a parking service's own; a hosting service's is never served).
  const shown = new Set([...siteIds.map(siteKey), apexKey(serviceId)]);
  const removed = [...applies].filter(([key]) => !shown.has(key)).map(([, job]) => job);
  const job = removed.find((j) => j.status === 'failed') ?? removed.find((j) => backendState(0, j.status) === 'pending');
  return { state: backendState(0, job?.status), job: job?.id ?? null };
}

/** The state of a site whose change was just queued. */
export const queued = (job: number): HostBackend => ({ state: 'pending', job });

/** How many redirections hang on a site (its row shows the count). */
export async function redirectionCount(store: Store, siteId: number) {
  const row = await store
    .selectFrom('redirection')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site_id', '=', siteId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
