import { describe, expect, it } from 'vitest';
import { driftLine, type LoadResult, machineDrift, medianPair, type Pair } from './load.ts';

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

describe('how far the machine moved during a run', () => {
  const bare = (cpuMicros?: number): LoadResult => ({ ...run(40000), cpuMicros });

  it('is the spread of the bare server’s CPU time per request, from its lowest to its highest', () => {
    expect(machineDrift([bare(20), bare(25), bare(22)])).toEqual({ low: 20, high: 25, runs: 3, spread: 0.25 });
  });

  it('ignores runs whose CPU time was not measured, and needs two that were', () => {
    expect(machineDrift([bare(20), bare()])).toBeUndefined();
    expect(machineDrift([bare(20), bare(), bare(21)])?.runs).toBe(2);
  });

  it('warns when the spread is over a tenth, and calls the machine steady below it', () => {
    expect(driftLine(machineDrift([bare(20), bare(21.8)])!)).toContain('a steady machine');
    expect(driftLine(machineDrift([bare(20), bare(22.5)])!)).toContain('WARNING');
  });
});
