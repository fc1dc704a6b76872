import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  CONTACT_MAIL_LIMITS,
  clearCounter,
  contactLimit,
  giveBack,
  type Limit,
  LOGIN_LIMITS,
  passwordLimit,
  takeSlot,
  takeSlots,
} from '../../src/kernel/ratelimit.ts';
import { now, type Store } from '../../src/store/db.ts';
import { describeStores, openTestStore } from '../stores.ts';

/** The counting itself, straight on the store: what the routes' tests reach only through HTTP. */
describeStores('rate-limit counters on %s', (kind) => {
  let store: Store;
  let close: () => Promise<void>;
  let n = 0;
  /** A limit of its own per test, so no test sees another's count. */
  const limit = (max: number, windowSeconds = 600): Limit => ({ key: `test:${kind}:${++n}`, max, windowSeconds });
  const hits = async (key: string) =>
    (await store.selectFrom('counter').select('hits').where('key', '=', key).executeTakeFirst())?.hits ?? null;

  beforeAll(async () => {
    ({ store, cleanup: close } = await openTestStore(kind));
  });
  afterAll(() => close());

  it('lets max attempts through in a window and makes the next wait until the window ends', async () => {
    const l = limit(2, 600);
    expect((await takeSlot(store, l)).wait).toBe(0);
    expect((await takeSlot(store, l)).wait).toBe(0);
    const third = await takeSlot(store, l);
    expect(third.wait).toBeGreaterThan(590);
    expect(third.wait).toBeLessThanOrEqual(600);
  });

  it('starts a window that has passed again at one attempt, ending a full window from now', async () => {
    const l = limit(1, 600);
    await takeSlot(store, l);
    await takeSlot(store, l);
    await store
      .updateTable('counter')
      .set({ reset_at: now() - 1 })
      .where('key', '=', l.key)
      .execute();
    const fresh = await takeSlot(store, l);
    expect(fresh.wait).toBe(0);
    expect(await hits(l.key)).toBe(1);
    expect(fresh.resetAt).toBeGreaterThanOrEqual(now() + 599);
    // The new window holds: a second attempt in it waits.
    expect((await takeSlot(store, l)).wait).toBeGreaterThan(0);
  });

  it('gives an attempt back, so it no longer counts against the limit', async () => {
    const l = limit(1);
    const slot = await takeSlot(store, l);
    await giveBack(store, slot);
    expect(await hits(l.key)).toBe(0);
    expect((await takeSlot(store, l)).wait).toBe(0);
  });

  it('clears a key, so its next attempt starts a new window', async () => {
    const l = limit(1);
    await takeSlot(store, l);
    await clearCounter(store, l.key);
    expect(await hits(l.key)).toBeNull();
    expect((await takeSlot(store, l)).wait).toBe(0);
  });

  it('drops windows that ended over a day ago when a new window starts, and keeps the others', async () => {
    const old = limit(5);
    const recent = limit(5);
    await takeSlot(store, old);
    await takeSlot(store, recent);
    await store
      .updateTable('counter')
      .set({ reset_at: now() - 86400 - 60 })
      .where('key', '=', old.key)
      .execute();
    await store
      .updateTable('counter')
      .set({ reset_at: now() - 60 })
      .where('key', '=', recent.key)
      .execute();
    await takeSlot(store, limit(5));
    expect(await hits(old.key)).toBeNull();
    expect(await hits(recent.key)).toBe(1);
  });

  it('does not sweep old windows on an attempt inside a running window', async () => {
    const running = limit(5);
    await takeSlot(store, running);
    const old = limit(5);
    await takeSlot(store, old);
    await store
      .updateTable('counter')
      .set({ reset_at: now() - 86400 - 60 })
      .where('key', '=', old.key)
      .execute();
    await takeSlot(store, running);
    expect(await hits(old.key)).toBe(1);
  });

  it('takes a slot of every limit when all are within, and answers them all with no wait', async () => {
    const [a, b] = [limit(3), limit(3)];
    const taken = await takeSlots(store, [a, b]);
    expect(taken.wait).toBe(0);
    expect(taken.slots.map((s) => s.limit.key)).toEqual([a.key, b.key]);
    expect([await hits(a.key), await hits(b.key)]).toEqual([1, 1]);
  });

  it('refuses at the first limit that is over, gives back the ones taken before it and holds none', async () => {
    const [wide, narrow] = [limit(10), limit(1)];
    await takeSlot(store, narrow);
    const refused = await takeSlots(store, [wide, narrow]);
    expect(refused.wait).toBeGreaterThan(0);
    expect(refused.slots).toEqual([]);
    expect(await hits(wide.key)).toBe(0);
  });

  it('never counts an attempt against a later limit once an earlier one refused it', async () => {
    const [narrow, wide] = [limit(1), limit(10)];
    await takeSlot(store, narrow);
    await takeSlots(store, [narrow, wide]);
    expect(await hits(wide.key)).toBeNull();
  });

  it('keeps every kind of limit of one address or user under a key of its own', () => {
    const keys = [
      LOGIN_LIMITS.user('cliente.es', 'ana'),
      LOGIN_LIMITS.ip('192.0.2.1'),
      passwordLimit(7),
      contactLimit('192.0.2.1'),
      CONTACT_MAIL_LIMITS.user(7),
      CONTACT_MAIL_LIMITS.realm(7),
    ].map((l) => l.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(LOGIN_LIMITS.ip('192.0.2.1').key).not.toBe(LOGIN_LIMITS.ip('192.0.2.2').key);
    expect(contactLimit('192.0.2.1').key).not.toBe(contactLimit('192.0.2.2').key);
    expect(passwordLimit(7).key).not.toBe(passwordLimit(8).key);
  });
});
