import { describe, expect, it } from 'vitest';
import { oncePerTurn } from './turn.ts';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('oncePerTurn', () => {
  it('runs the work once for the calls of one turn, after the callbacks that turn had already queued', async () => {
    const events: string[] = [];
    const shared = oncePerTurn(async () => {
      events.push('work');
    }, 16);
    setImmediate(() => events.push('queued before'));
    const calls = [shared(), shared(), shared()];
    expect(calls[1]).toBe(calls[0]);
    expect(calls[2]).toBe(calls[0]);
    await Promise.all(calls);
    expect(events).toEqual(['queued before', 'work']);
  });

  it('starts another run for the call after the first max ones of a turn', async () => {
    let runs = 0;
    const shared = oncePerTurn(async () => {
      runs++;
    }, 2);
    const calls = [shared(), shared(), shared()];
    expect(calls[1]).toBe(calls[0]);
    expect(calls[2]).not.toBe(calls[0]);
    await Promise.all(calls);
    expect(runs).toBe(2);
  });

  it('gives a call made once the run has started a run of its own', async () => {
    let runs = 0;
    let late: Promise<void> | undefined;
    const shared = oncePerTurn(async () => {
      runs++;
      late ??= shared();
    }, 16);
    const first = shared();
    await first;
    expect(late).toBeDefined();
    expect(late).not.toBe(first);
    await late;
    expect(runs).toBe(2);
  });

  it('rejects every call of a failed run, and the next turn runs the work again', async () => {
    let fail = true;
    const shared = oncePerTurn(async () => {
      if (fail) throw new Error('the store was busy');
    }, 16);
    const calls = [shared(), shared()];
    await expect(calls[0]).rejects.toThrow('the store was busy');
    await expect(calls[1]).rejects.toThrow('the store was busy');
    fail = false;
    await nextTurn();
    await expect(shared()).resolves.toBeUndefined();
  });
});
