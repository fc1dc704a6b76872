import { Session } from 'node:inspector/promises';
import type { FastifyInstance } from 'fastify';
import type { Logger } from './logger.ts';

/**
 * V8 keeps the pages a load made its heap take: the ones its collections free go to a pool for the
 * next allocations, and only a collection that is asked to reduce memory gives them back to the
 * system. Under load the server does not need that (the pool is reused); once the load is over the
 * pages are kept for as long as the process runs: a 60 s soak took a server from 140 to 166 MB and
 * 20 s of idle time did not change it (V8's own memory reducer does not give the pool back); one
 * such collection then took it to 135 MB (decision 065).
 *
 * So: every `everyMs`, when no request arrived since the last look and the resident memory is more
 * than `growthMb` (8) above what it was after the last release, one low-memory collection runs (the
 * inspector's `HeapProfiler.collectGarbage`, V8's `LowMemoryNotification`). It stops the process for
 * full collections (about 250 ms of CPU for the panel's heap after a load), so never while
 * requests arrive. The next
 * floor is what it left: memory that the collection could not give back (malloc's, or live) does
 * not make it run again.
 */
export interface QuietRelease {
  /** One look, as the timer takes it (exported for tests, which drive it by hand). */
  tick(): Promise<void>;
  stop(): void;
}

export interface QuietReleaseOptions {
  everyMs?: number;
  growthMb?: number;
  rssMb?: () => number;
  release?: () => Promise<void>;
  log?: Pick<Logger, 'info'>;
}

/** V8's low-memory collection, through an inspector session of the process's own (no port is opened). */
export async function lowMemoryCollection() {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.collectGarbage');
  } finally {
    session.disconnect();
  }
}

const processRssMb = () => process.memoryUsage.rss() / 1048576;

export function releaseMemoryWhenQuiet(app: FastifyInstance, options: QuietReleaseOptions = {}): QuietRelease {
  const { everyMs = 10_000, growthMb = 8, rssMb = processRssMb, release = lowMemoryCollection, log } = options;
  let requests = 0;
  let seen = 0;
  let floor = rssMb();
  let releasing = false;
  app.addHook('onRequest', (_request, _reply, done) => {
    requests++;
    done();
  });
  const tick = async () => {
    const quiet = requests === seen;
    seen = requests;
    const before = rssMb();
    if (!quiet || releasing || before - floor < growthMb) return;
    releasing = true;
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      await release();
    } finally {
      releasing = false;
    }
    floor = rssMb();
    const { user, system } = process.cpuUsage(cpu);
    log?.info(
      {
        rssBeforeMb: Math.round(before),
        rssAfterMb: Math.round(floor),
        ms: Math.round(performance.now() - started),
        // On a busy machine the time is mostly waiting for a core; the CPU time is the collection's own.
        cpuMs: Math.round((user + system) / 1000),
      },
      'memory given back after a busy spell',
    );
  };
  const timer = setInterval(() => void tick().catch(() => {}), everyMs);
  timer.unref();
  return { tick, stop: () => clearInterval(timer) };
}
