import { describe, expect, it } from 'vitest';
import { CommandError, run } from '../../src/drivers/real/common/run.ts';

describe('running a backend program', () => {
  it('kills the program when its job aborts, long before its own time-out', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running = run('sleep', ['30'], { timeoutMs: 60_000, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('time limit')), 100);
    const failure = await running.catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(CommandError);
    expect(String(failure)).toContain('sleep was stopped: its job was aborted');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('does not start a program for a job already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('shutting down'));
    await expect(run('sleep', ['30'], { signal: controller.signal })).rejects.toThrow(/its job was aborted/);
  });

  it('runs to the end when the signal never aborts', async () => {
    const result = await run('sh', ['-c', 'echo done'], { signal: new AbortController().signal });
    expect(result).toMatchObject({ code: 0, stdout: 'done\n' });
  });
});
