/** Requests that one run holds by default: unbounded runs doubled the heap a loaded server kept. */
export const BATCH = 16;

/**
 * `work` run once for the calls made in one turn of the event loop. The first call schedules it
 * with `setImmediate`, that is once the turn's I/O is done; the calls made until it starts share
 * that run, at most `max` of them (each further call starts a run of its own), and a call made once
 * it has started waits for the next one.
 *
 * Under load a turn reads many requests: waiting for one event, they then go through the guard,
 * the handlers and the answer stage by stage, with the code warm, instead of each one interleaved
 * with the kernel's socket reads, which made the API's signed-in reads much cheaper (decision 024). `max` bounds how many requests a run holds in memory at once.
 */
export function oncePerTurn(work: () => Promise<void>, max = BATCH): () => Promise<void> {
  let waiting: Promise<void> | undefined;
  let joined = 0;
  return () => {
    if (!waiting || joined >= max) {
      const run: Promise<void> = new Promise<void>((resolve, reject) => {
        setImmediate(() => {
          if (waiting === run) waiting = undefined;
          work().then(resolve, reject);
        });
      });
      waiting = run;
      joined = 0;
    }
    joined++;
    return waiting;
  };
}
