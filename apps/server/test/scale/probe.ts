import { setTimeout as sleep } from 'node:timers/promises';
import { enqueue, type JobHandlers } from '../../src/outbox/outbox.ts';
import { now, type Store } from '../../src/store/db.ts';

export const PROBE_JOB = 'outbox.probe';

/** A probe's payload: which probe item and step, and how long the handler takes. */
interface Probe {
  item: number;
  seq: number;
  ms: number;
}

/**
 * Probe jobs let the multi-process test and the scale bench see the workers at work without
 * touching a backend (registered through test/scale/probe-server.ts, never by the product): each application writes one audit line (`outbox.probe`, with the item, the step and
 * the process), so the audit shows every job applied, in which order, by whom and how many times.
 * Probe items are negative ids, never a real item's.
 */
export function probeJobs(store: Store): JobHandlers {
  return {
    [PROBE_JOB]: async (payload) => {
      const { item, seq, ms } = payload as Probe;
      if (ms > 0) await sleep(ms);
      await store
        .insertInto('audit_event')
        .values({
          at: now(),
          realm_id: null,
          user_id: null,
          action: PROBE_JOB,
          outcome: 'applied',
          detail: JSON.stringify({ item, seq, pid: process.pid }),
        })
        .execute();
    },
  };
}

/** Queues `perItem` probe jobs for each of `items` probe items, interleaved, each in its own commit. */
export async function queueProbes(store: Store, items: number, perItem: number, ms = 0) {
  for (let seq = 0; seq < perItem; seq++)
    for (let item = 1; item <= items; item++) await enqueue(store, PROBE_JOB, { item, seq, ms }, -item);
}
