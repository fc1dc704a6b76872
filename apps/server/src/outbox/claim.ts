import { sql } from 'kysely';
import type { Store } from '../store/db.ts';
import type { Job } from '../store/schema.ts';
import { LANES } from './lanes.ts';

/** The advisory-lock namespace under which claims of one item's jobs take turns (PostgreSQL). */
const ITEM_LOCK = 7_414_002;

/**
 * Whether job `j` may be claimed at `t` (checked for one row, after the item's lock): due pending ones and running ones whose lease ended (their
 * process died), but none while an earlier unfinished job of its item holds a lane it waits for, or
 * while such a job runs under a live lease. Jobs of different items (or of none) are independent.
 *
 * The lanes are the backends a job changes (`lanes`) and those it depends on (`after_lanes`, which
 * include its own), from its kind (outbox/lanes.ts, decision 055): an item's registry change never
 * waits for its certificate, a move or a termination step holds every lane. Where a job applies
 * (`node_id`, decision 040) does not split a lane: a node's worker claims only its node's jobs, and
 * jobs queued for a service's new node wait behind its move, which holds the whole item.
 */
const claimable = (t: number) => sql<boolean>`(
  ((j.status = 'pending' AND j.next_at <= ${t}) OR (j.status = 'running' AND j.lease_until < ${t}))
  AND (j.item_id IS NULL OR NOT EXISTS (
    SELECT 1 FROM job e WHERE e.item_id = j.item_id AND e.id <> j.id AND (e.lanes & j.after_lanes) <> 0 AND (
      (e.status = 'running' AND e.lease_until >= ${t}) OR (e.status IN ('pending', 'running') AND e.id < j.id)
    )
  ))
)`;

/** The claim itself: running, leased to `token` until `t + leaseSeconds`; a take-over counts as an attempt. */
const claimSet = (t: number, leaseSeconds: number, token: string) => sql`
  status = 'running', lease_until = ${t + leaseSeconds}, claimed_by = ${token}, updated_at = ${t},
  attempts = CASE WHEN status = 'running' THEN attempts + 1 ELSE attempts END,
  last_error = CASE WHEN status = 'running' THEN 'the worker applying it stopped (lease expired)' ELSE last_error END`;

/** Whose jobs a claim takes: a node's agent only its node's, the panel's own worker those of no node (decision 040). */
const forNode = (node: number | null) => (node === null ? sql`j.node_id IS NULL` : sql`j.node_id = ${node}`);

/** One bit of the lane masks, as a literal (both stores compare integers bitwise). */
const bits = LANES.map((_lane, i) => ({ i, bit: sql.lit(1 << i) }));

/**
 * The same rule for a search over the whole queue, computed once per item instead of once per
 * candidate: for each lane, its item's head (the first unfinished job holding it) and whether a job
 * holding it runs under a live lease; a candidate must come no later than the head of every lane it
 * waits for, none of them busy (see claimable above).
 */
const firstClaimable = (t: number, limit: number, node: number | null) => sql`SELECT j.id, j.item_id FROM job j
  LEFT JOIN (
    SELECT item_id, ${sql.join(
      bits.map(
        ({ i, bit }) =>
          sql`MIN(CASE WHEN (lanes & ${bit}) <> 0 THEN id END) AS ${sql.ref(`head${i}`)}, MAX(CASE WHEN (lanes & ${bit}) <> 0 THEN live ELSE 0 END) AS ${sql.ref(`busy${i}`)}`,
      ),
    )}
    FROM (
      SELECT item_id, id, lanes, CASE WHEN status = 'running' AND lease_until >= ${t} THEN 1 ELSE 0 END AS live
      FROM job WHERE status IN ('pending', 'running') AND item_id IS NOT NULL
    ) o GROUP BY item_id
  ) h ON h.item_id = j.item_id
  WHERE ((j.status = 'pending' AND j.next_at <= ${t}) OR (j.status = 'running' AND j.lease_until < ${t}))
    AND (j.item_id IS NULL OR (${sql.join(
      bits.map(
        ({ i, bit }) =>
          sql`((j.after_lanes & ${bit}) = 0 OR (COALESCE(${sql.ref(`h.head${i}`)}, j.id) >= j.id AND ${sql.ref(`h.busy${i}`)} = 0))`,
      ),
      sql` AND `,
    )}))
    AND ${forNode(node)}
  ORDER BY j.id LIMIT ${limit}`;

/**
 * Claims up to `limit` claimable jobs for `token` (of one item, only jobs of lanes apart: the head
 * of each), first committed first. SQLite: one UPDATE under the store's single write lock.
 * PostgreSQL, in one transaction: the candidates are locked with FOR UPDATE SKIP LOCKED (workers
 * never wait on each other's candidates), then claims of the same item take turns on an advisory
 * lock (taken in item order, so two claimers never deadlock) and the UPDATE re-checks each
 * candidate with a fresh snapshot: a job committed out of id order could otherwise start beside
 * another job of its item that a concurrent claim has just taken.
 */
export async function claimJobs(
  store: Store,
  leaseSeconds: number,
  token: string,
  t: number,
  limit = 1,
  node: number | null = null,
): Promise<Job[]> {
  if (store.kind === 'sqlite') {
    const rows = await sql<Job>`UPDATE job SET ${claimSet(t, leaseSeconds, token)}
      WHERE id IN (SELECT id FROM (${firstClaimable(t, limit, node)}) c) RETURNING *`.execute(store);
    return rows.rows.sort((a, b) => a.id - b.id);
  }
  return store.transaction().execute(async (trx) => {
    const candidates = (
      await sql<{ id: number; item_id: number | null }>`${firstClaimable(t, limit, node)} FOR UPDATE OF j SKIP LOCKED`.execute(trx)
    ).rows;
    if (candidates.length === 0) return [];
    const items = [...new Set(candidates.map((c) => c.item_id).filter((i): i is number => i !== null))].sort((a, b) => a - b);
    for (const item of items) await sql`SELECT pg_advisory_xact_lock(${ITEM_LOCK}, ${item})`.execute(trx);
    const ids = candidates.map((c) => c.id);
    const rows = await sql<Job>`UPDATE job j SET ${claimSet(t, leaseSeconds, token)}
      WHERE j.id IN (${sql.join(ids)}) AND ${claimable(t)} RETURNING *`.execute(trx);
    return rows.rows.sort((a, b) => a.id - b.id);
  });
}

/**
 * When the next job may become claimable (Unix seconds): the earliest due pending job, or the
 * earliest lease of a running one to run out (its process may have died), so an idle worker sleeps
 * until then rather than a full fallback poll.
 */
export async function nextDue(store: Store, node: number | null = null): Promise<number | null> {
  const row = await store
    .selectFrom('job')
    .select((eb) => [
      eb.fn.min(eb.case().when('status', '=', 'pending').then(eb.ref('next_at')).end()).as('due'),
      eb.fn.min(eb.case().when('status', '=', 'running').then(eb.ref('lease_until')).end()).as('lease'),
    ])
    .where('status', 'in', ['pending', 'running'])
    .where('node_id', node === null ? 'is' : '=', node)
    .executeTakeFirst();
  const times = [row?.due, row?.lease == null ? null : Number(row.lease) + 1].filter((v) => v != null).map(Number);
  return times.length ? Math.min(...times) : null;
}
