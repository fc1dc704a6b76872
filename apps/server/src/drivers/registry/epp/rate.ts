/**
 * The registry's rate limit, kept on the client's side: at most `perWindow` commands start in any
 * window (a minute). A command over the limit waits for its turn, in the order it asked; none fails for it.
 * The registry counts a command when it arrives, which jitter can make later for an earlier
 * command than for the one sent a window after it: each start holds its place a hundredth of the
 * window longer, so that the registry never sees one command too many in its window.
 */
export function rateLimiter(
  perWindow: number,
  windowMs = 60_000,
  clock: () => number = Date.now,
  sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
) {
  const started: number[] = [];
  const held = windowMs + windowMs / 100;
  let queue: Promise<void> = Promise.resolve();
  const take = async () => {
    for (;;) {
      const now = clock();
      while (started.length && started[0] <= now - held) started.shift();
      if (started.length < perWindow) {
        started.push(now);
        return;
      }
      await sleep(started[0] + held - now);
    }
  };
  return {
    /** Resolves when the next command may go. */
    turn(): Promise<void> {
      if (perWindow <= 0) return Promise.resolve();
      const mine = queue.then(take);
      queue = mine;
      return mine;
    },
  };
}
