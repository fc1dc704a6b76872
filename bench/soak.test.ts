import { describe, expect, it } from 'vitest';
import { memoryVerdict } from './soak.ts';

describe("the soak's memory verdict (decision 065)", () => {
  it('meets a budget the reading is under', () => {
    expect(memoryVerdict(19, 20, 2)).toEqual({ failed: false, note: '' });
  });

  it('gives no verdict on a miss smaller than the noise of the idle server in the same run', () => {
    const verdict = memoryVerdict(21, 20, 2);
    expect(verdict.failed).toBe(false);
    expect(verdict.note).toContain('within the noise');
  });

  it('fails a miss by more than that noise, and any miss when the idle server did not move', () => {
    expect(memoryVerdict(23, 20, 2).failed).toBe(true);
    expect(memoryVerdict(20, 20, 0).failed).toBe(true);
  });
});
