import { hash } from 'node:crypto';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from '@atalaya/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { now, type Store } from '../../store/db.ts';

/** How long a retry waits for the first request with its key to be answered before it answers 409. */
const WAIT_MS = 15_000;
const POLL_MS = 50;
/** A key whose first request never finished (its process died) may be taken over after this long. */
const ABANDONED_AFTER = 300;

/** JSON with sorted keys: the same body sent with its fields in another order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const requestHash = (request: FastifyRequest) =>
  hash('sha256', `${request.method} ${request.routeOptions.url}\n${canonical(request.body)}`, 'base64url');

/** Takes the key for this request: true when this request is the first (or takes over an abandoned one). */
async function claim(store: Store, operatorId: number, key: string, fingerprint: string) {
  const t = now();
  const inserted = await store
    .insertInto('idempotency_key')
    .values({ operator_id: operatorId, key, request_hash: fingerprint, status: null, answer: null, created_at: t })
    .onConflict((oc) => oc.columns(['operator_id', 'key']).doNothing())
    .returning('key')
    .executeTakeFirst();
  if (inserted) return true;
  const takenOver = await store
    .updateTable('idempotency_key')
    .set({ created_at: t, request_hash: fingerprint })
    .where('operator_id', '=', operatorId)
    .where('key', '=', key)
    .where('status', 'is', null)
    .where('created_at', '<', t - ABANDONED_AFTER)
    .executeTakeFirst();
  return Number(takenOver.numUpdatedRows) > 0;
}

/**
 * Runs an operator write once per Idempotency-Key (decision 037). The key is a row of the store,
 * unique per operator token, so every process and every restart sees it: the first request with
 * a key runs and its answer is kept; the same key with the same method, path and body answers that
 * answer again (marked `idempotent-replayed: true`), also while the first is still running (it
 * waits for it); another body under the key is refused with 422. A write that fails keeps nothing,
 * so its retry runs again. Without the header the write simply runs.
 */
export async function idempotent<T>(store: Store, request: FastifyRequest, reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  const header = request.headers[IDEMPOTENCY_HEADER];
  if (header === undefined || !request.operator) return run();
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(header)) throw new ApiError(400, 'operator.idempotency_key_invalid');
  const operatorId = request.operator.id;
  const fingerprint = requestHash(request);
  const row = () =>
    store.selectFrom('idempotency_key').selectAll().where('operator_id', '=', operatorId).where('key', '=', header).executeTakeFirst();
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (await claim(store, operatorId, header, fingerprint)) break;
    const first = await row();
    // Gone: the first request failed in between and kept nothing; this one tries to be the first.
    if (!first) continue;
    if (first.request_hash !== fingerprint) throw new ApiError(422, 'operator.idempotency_mismatch');
    if (first.status !== null && first.answer !== null) {
      reply.header('idempotent-replayed', 'true');
      return JSON.parse(first.answer) as T;
    }
    if (Date.now() > deadline) throw new ApiError(409, 'operator.idempotency_pending');
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  try {
    const answer = await run();
    await store
      .updateTable('idempotency_key')
      .set({ status: 200, answer: JSON.stringify(answer) })
      .where('operator_id', '=', operatorId)
      .where('key', '=', header)
      .execute();
    return answer;
  } catch (error) {
    await store.deleteFrom('idempotency_key').where('operator_id', '=', operatorId).where('key', '=', header).execute();
    throw error;
  }
}
