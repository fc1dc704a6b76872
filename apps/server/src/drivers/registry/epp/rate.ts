/**
 * The registry's rate limit, kept on the client's side: at most `perMinute` commands start in any
 * 60 seconds. A command over the limit waits for its turn, in the order it asked; none fails for it.
 */
export function rateLimiter(
  perMinute: number,
  clock: () => number = Date.now,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
) {
  const started: number[] = [];
  let queue: Promise<void> = Promise.resolve();
  const take = async () => {
    for (;;) {
      const now = clock();
      while (started.length && started[0] <= now - 60_000) started.shift();
      if (started.length < perMinute) {
        started.push(now);
        return;
      }
      await sleep(started[0] + 60_000 - now);
    }
  };
  return {
    /** Resolves when the next command may go. */
    turn(): Promise<void> {
      if (perMinute <= 0) return Promise.resolve();
      const mine = queue.then(take);
      queue = mine;
      return mine;
    },
  };
}
