import type { Runtime } from '../../kernel/runtime.ts';
import type { JobHandlers } from '../../outbox/outbox.ts';
import { refreshMtaStsRecord } from '../service/mail/records.ts';
import { issueJob } from './acme/issue.ts';
import { installJob } from './installer/job.ts';
import { APPLY_JOB, loadSiteState } from './state.ts';

/** The sites area's job handlers: a host converged on the store, and an application installed. */
export function sitesJobs(runtime: Runtime): JobHandlers {
  const { drivers } = runtime;
  return {
    /** Converges one host on what the store holds now: applied if it exists, removed if it is gone. */
    [APPLY_JOB]: async (payload) => {
      const key = String((payload as { key?: unknown }).key);
      const state = await loadSiteState(runtime, key);
      if (state) {
        await drivers.sites.applySite(state);
        // Served first, announced after: a sender fetching on the new id finds the new policy.
        if (state.mtaSts) await refreshMtaStsRecord(runtime.store, state.serviceId, state.mtaSts);
      } else await drivers.sites.removeSite(key);
    },
    ...installJob(runtime),
    ...issueJob(runtime),
  };
}
