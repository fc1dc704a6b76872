import { describe, expect, it } from 'vitest';
import { type LoadResult, medianPair, type Pair } from './load.ts';

const run = (rps: number): LoadResult => ({ rps, p50: 1, p99: 5, errors: 0, total: rps });
const pair = (baseline: number, call: number): Pair => ({ baseline: run(baseline), result: run(call) });

describe('the round a call is judged on', () => {
  it('is the round whose ratio is the median, not the one with the most requests', () => {
    const rounds = [pair(60000, 36000), pair(40000, 30000), pair(50000, 25000)];
    expect(medianPair(rounds)).toBe(rounds[0]);
  });

  it('is the lower of the two middle rounds when their number is even', () => {
    const rounds = [pair(100, 70), pair(100, 50), pair(100, 60), pair(100, 40)];
    expect(medianPair(rounds)).toBe(rounds[1]);
  });
});
