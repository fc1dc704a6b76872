import { getHeapStatistics } from 'node:v8';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { lowMemoryCollection, type QuietRelease, releaseMemoryWhenQuiet } from './memory.ts';

describe('memory given back once the server is quiet (decision 065)', () => {
  let app = Fastify();
  let quiet: QuietRelease | undefined;
  afterEach(async () => {
    quiet?.stop();
    await app.close();
    app = Fastify();
  });

  /** A server whose resident memory is what the test says, and which counts the collections it asks for. */
  function server(growthMb = 16) {
    const state = { rssMb: 100, releases: 0 };
    app.get('/', async () => ({ ok: true }));
    quiet = releaseMemoryWhenQuiet(app, {
      everyMs: 3_600_000,
      growthMb,
      rssMb: () => state.rssMb,
      release: async () => {
        state.releases++;
        state.rssMb -= 20;
      },
    });
    return state;
  }

  it('runs a low-memory collection at the first look with no request since the last, once the memory grew', async () => {
    const state = server();
    await app.inject('/');
    state.rssMb = 140;
    await quiet!.tick();
    expect(state.releases).toBe(0);
    await app.inject('/');
    await quiet!.tick();
    expect(state.releases).toBe(0);
    await quiet!.tick();
    expect(state.releases).toBe(1);
  });

  it('does not collect when the memory grew less than the threshold', async () => {
    const state = server(16);
    await app.inject('/');
    state.rssMb = 115;
    await quiet!.tick();
    await quiet!.tick();
    expect(state.releases).toBe(0);
    state.rssMb = 117;
    await quiet!.tick();
    expect(state.releases).toBe(1);
  });

  it('measures the next growth from what the collection left, so memory it cannot give back does not make it run again', async () => {
    const state = server();
    state.rssMb = 200;
    await quiet!.tick();
    expect(state.releases).toBe(1);
    await quiet!.tick();
    await quiet!.tick();
    expect(state.releases).toBe(1);
    state.rssMb = 197;
    await quiet!.tick();
    expect(state.releases).toBe(2);
  });

  it("V8's low-memory collection gives back the pages of a heap that held garbage", async () => {
    let kept: { text: string }[] = [];
    for (let i = 0; i < 400_000; i++) kept.push({ text: `garbage ${i} `.repeat(4) });
    kept = kept.filter((_, i) => i % 100 === 0);
    const before = getHeapStatistics().total_physical_size;
    await lowMemoryCollection();
    expect(getHeapStatistics().total_physical_size).toBeLessThan(before - 16 * 1048576);
    expect(kept).toHaveLength(4000);
  });
});
