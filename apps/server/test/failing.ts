import { type MockInstance, vi } from 'vitest';
import { MAX_ATTEMPTS } from '../src/outbox/outbox.ts';
import type { TestContext } from './stores.ts';

/**
 * Runs a job against a driver that refuses it (`methods` throw `message`) until the outbox gives up
 * on it, as a backend that stays down would: MAX_ATTEMPTS refusals, each back-off cut short. The
 * driver works again afterwards. Answers the job's status and last error.
 */
export async function failForGood(ctx: TestContext, job: number, driver: object, methods: string[], message: string) {
  const target = driver as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const spies: MockInstance[] = methods.map((m) => vi.spyOn(target, m).mockRejectedValue(new Error(message)));
  const { item_id } = await ctx.store.selectFrom('job').select('item_id').where('id', '=', job).executeTakeFirstOrThrow();
  try {
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      // The item's jobs run in order: one queued before this one must not wait out its back-off either.
      await ctx.store.updateTable('job').set({ next_at: 0 }).where('item_id', '=', item_id).where('status', '=', 'pending').execute();
      await ctx.app.runtime.outbox.drain();
    }
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return ctx.store.selectFrom('job').select(['status', 'last_error']).where('id', '=', job).executeTakeFirstOrThrow();
}

/** A job's status now. */
export const statusOf = async (ctx: TestContext, job: number) =>
  (await ctx.store.selectFrom('job').select('status').where('id', '=', job).executeTakeFirstOrThrow()).status;
