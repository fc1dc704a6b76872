import { describe, expect, it } from 'vitest';
import { driftLine, judge, type LoadResult, machineDrift, medianPair, type Pair } from './load.ts';

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

describe('a guard judged against the machine’s own noise', () => {
  const round = (bareRps: number, callRps: number, p99 = 5, bareP99 = 5): Pair => ({
    baseline: { ...run(bareRps), p99: bareP99 },
    result: { ...run(callRps), p99 },
  });

  it('is met when the median ratio and every round’s p99 keep the guard', () => {
    expect(judge({ minRatio: 0.6, maxP99: 10 }, [round(100, 70), round(100, 65), round(100, 80, 9)])).toMatchObject({
      met: true,
      missed: false,
    });
  });

  it('is missed when the ratio falls below the guard by more than the bare server moved between rounds', () => {
    // The bare rounds moved 10%: 0.6× allows down to 0.545×; a median of 0.53× is the panel.
    const verdict = judge({ minRatio: 0.6 }, [round(100, 53), round(110, 58.3), round(105, 55.65)]);
    expect(verdict.spread).toBeCloseTo(0.1);
    expect(verdict).toMatchObject({ met: false, missed: true });
    expect(verdict.line).toContain('MISSED');
  });

  it('is no verdict when the ratio misses by less than the bare server moved', () => {
    const verdict = judge({ minRatio: 0.6 }, [round(100, 56), round(120, 67), round(110, 62)]);
    expect(verdict).toMatchObject({ met: false, missed: false });
    expect(verdict.line).toContain('within the noise');
  });

  it('is missed when a round’s p99 passes the guard by more than the bare server’s own slowest p99', () => {
    // The bare server's slowest p99 was 4 ms: up to 14 ms could be the machine, 15 ms is the panel.
    expect(judge({ minRatio: 0.35, maxP99: 10 }, [round(100, 50, 12, 3), round(100, 50, 14, 4)]).missed).toBe(false);
    expect(judge({ minRatio: 0.35, maxP99: 10 }, [round(100, 50, 12, 3), round(100, 50, 15, 4)]).missed).toBe(true);
  });

  it('allows the bare server’s tail times the call’s CPU per request against the bare server’s', () => {
    // Twice the CPU per request: each of the machine's 4 ms stalls may cost it 8 ms, so up to 18 ms.
    const costly = (p99: number): Pair => ({
      baseline: { ...run(100), p99: 4, cpuMicros: 20 },
      result: { ...run(50), p99, cpuMicros: 40 },
    });
    expect(judge({ minRatio: 0.35, maxP99: 10 }, [costly(18)]).missed).toBe(false);
    expect(judge({ minRatio: 0.35, maxP99: 10 }, [costly(19)]).missed).toBe(true);
  });

  it('is missed on any error, whatever the speed', () => {
    const failing: Pair = { baseline: run(100), result: { ...run(90), errors: 1 } };
    expect(judge({ minRatio: 0.3 }, [failing]).missed).toBe(true);
  });
});
