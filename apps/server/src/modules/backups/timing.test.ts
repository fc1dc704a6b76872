import { describe, expect, it } from 'vitest';
import { forgottenRows, isDue, latestSlot, offsetOf, pruneSlot, startOfDay } from './timing.ts';

const timing = { schedule: '03:00', windowMinutes: 240 };
const secs = (d: Date) => d.getTime() / 1000;
const local = (day: number, h: number, m = 0) => new Date(2026, 11, day, h, m);

describe('the nightly backup timing', () => {
  it('spreads services over the window, each at the same minute every night', () => {
    const offsets = Array.from({ length: 2000 }, (_, i) => offsetOf(i + 1, 240));
    expect(Math.min(...offsets)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...offsets)).toBeLessThan(240);
    // No minute of the four hours gets more than three times its share (2000 / 240 ≈ 8.3).
    const perMinute = new Map<number, number>();
    for (const o of offsets) perMinute.set(o, (perMinute.get(o) ?? 0) + 1);
    expect(perMinute.size).toBeGreaterThan(200);
    expect(Math.max(...perMinute.values())).toBeLessThan(25);
    expect(offsetOf(42, 240)).toBe(offsetOf(42, 240));
    expect(offsetOf(42, 0)).toBe(0);
  });

  it("places a service's slot at the schedule plus its offset, tonight's once it came, else last night's", () => {
    const id = 7;
    const minute = offsetOf(id, 240);
    const tonight = local(10, 3, minute);
    expect(latestSlot(id, new Date(tonight.getTime() + 1000), timing)).toEqual(tonight);
    expect(latestSlot(id, tonight, timing)).toEqual(tonight);
    expect(latestSlot(id, new Date(tonight.getTime() - 1000), timing)).toEqual(local(9, 3, minute));
    expect(latestSlot(id, local(10, 23, 59), timing)).toEqual(tonight);
  });

  it('is due once per night: not before its slot, once after it, not again after a nightly backup was queued', () => {
    const id = 11;
    const slot = latestSlot(id, local(10, 12), timing);
    const lastNight = latestSlot(id, local(9, 12), timing);
    const service = { itemId: id, createdAt: secs(local(1, 0)), lastScheduled: secs(lastNight) + 5 };
    expect(isDue(service, new Date(slot.getTime() - 60_000), timing)).toBe(false);
    expect(isDue(service, slot, timing)).toBe(true);
    expect(isDue({ ...service, lastScheduled: secs(slot) + 5 }, new Date(slot.getTime() + 3_600_000), timing)).toBe(false);
    expect(isDue({ ...service, lastScheduled: null }, slot, timing)).toBe(true);
  });

  it('lets a service created after its slot wait for the next night', () => {
    const id = 12;
    const slot = latestSlot(id, local(10, 12), timing);
    const service = { itemId: id, createdAt: secs(slot) + 60, lastScheduled: null };
    expect(isDue(service, local(10, 12), timing)).toBe(false);
    const next = latestSlot(id, local(11, 12), timing);
    expect(isDue(service, next, timing)).toBe(true);
  });

  it('prunes once the window and an hour after it have passed', () => {
    expect(pruneSlot(local(10, 8, 1), timing)).toEqual(local(10, 8));
    expect(pruneSlot(local(10, 7, 59), timing)).toEqual(local(9, 8));
  });

  it("counts the day's backups from local midnight", () => {
    expect(startOfDay(local(10, 0, 0))).toEqual(local(10, 0));
    expect(startOfDay(local(10, 23, 59))).toEqual(local(10, 0));
  });

  it('forgets a row only when every one of its snapshots was removed', () => {
    const rows = [
      { id: 1, snapshots: ['a', 'b'] },
      { id: 2, snapshots: ['c', 'd'] },
      { id: 3, snapshots: [] },
    ];
    expect(forgottenRows(rows, ['a', 'b', 'c'])).toEqual([1]);
    expect(forgottenRows(rows, [])).toEqual([]);
  });
});
