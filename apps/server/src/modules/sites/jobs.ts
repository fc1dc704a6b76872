import { SERVE_MTA_STS } from '../../kernel/hand-offs.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import type { JobHandlers } from '../../outbox/outbox.ts';
import { issueJob } from './acme/issue.ts';
import { installJob } from './installer/job.ts';
import { refreshMtaStsRecord } from './mta-sts.ts';
import { APPLY_JOB, loadSiteState, siteKey } from './state.ts';

/** The sites area's job handlers: a host converged on the store, and an application installed. */
export function sitesJobs(runtime: Runtime): JobHandlers {
  const { drivers } = runtime;
  /** Converges one host on what the store holds now: applied if it exists, removed if it is gone. */
  const apply = async (key: string) => {
    const state = await loadSiteState(runtime, key);
    if (state) {
      await drivers.sites.applySite(state);
      // Served first, announced after: a sender fetching on the new id finds the new policy.
      if (state.mtaSts) await refreshMtaStsRecord(runtime.store, state.serviceId, state.mtaSts);
    } else await drivers.sites.removeSite(key);
  };
  return {
    [APPLY_JOB]: (payload) => apply(String((payload as { key?: unknown }).key)),
    // The DNS area's hand-off (kernel/hand-offs.ts): the zone's MX records changed.
    [SERVE_MTA_STS]: (payload) => apply(siteKey(Number((payload as { siteId?: unknown }).siteId))),
    ...installJob(runtime),
    ...issueJob(runtime),
  };
}
