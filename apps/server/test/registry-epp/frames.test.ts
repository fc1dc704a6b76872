import { describe, expect, it } from 'vitest';
import { frame, frameReader } from '../../src/drivers/registry/epp/frames.ts';
import { rateLimiter } from '../../src/drivers/registry/epp/rate.ts';

describe('EPP frames', () => {
  it('carry a 4-byte big-endian length that counts the header and the UTF-8 bytes', () => {
    const bytes = frame('<a>ñ</a>');
    expect(bytes.readUInt32BE(0)).toBe(4 + Buffer.byteLength('<a>ñ</a>'));
    expect(bytes.subarray(4).toString()).toBe('<a>ñ</a>');
  });

  it('are read whole whatever the chunks they arrive in', () => {
    const got: string[] = [];
    const read = frameReader((xml) => got.push(xml));
    const both = Buffer.concat([frame('<one/>'), frame('<two>é</two>')]);
    for (let i = 0; i < both.length; i += 3) read(both.subarray(i, i + 3));
    expect(got).toEqual(['<one/>', '<two>é</two>']);
  });

  it('stop at a header that cannot be EPP', () => {
    const read = frameReader(() => {});
    expect(() => read(Buffer.from('HTTP/1.1 400'))).toThrow('frame header');
  });
});

describe('the rate limit', () => {
  it('lets the first N commands of a minute go at once and makes the next wait for the oldest to age', async () => {
    let clock = 1000;
    const waits: number[] = [];
    const limiter = rateLimiter(
      2,
      60_000,
      () => clock,
      async (ms) => {
        waits.push(ms);
        clock += ms;
      },
    );
    await limiter.turn();
    clock += 10_000;
    await limiter.turn();
    expect(waits).toEqual([]);
    await limiter.turn();
    // The oldest start ages a minute and a hundredth (the margin for the registry's jitter).
    expect(waits).toEqual([50_600]);
    await limiter.turn();
    expect(waits).toEqual([50_600, 10_000]);
  });

  it('never waits when the limit is 0', async () => {
    const limiter = rateLimiter(0, 60_000, () => 0);
    for (let i = 0; i < 100; i++) await limiter.turn();
  });
});
