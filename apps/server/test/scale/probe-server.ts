/**
 * The server as `npm start` runs it, plus the outbox probe's job kind: the entry the multi-process
 * test and `bench/scale.ts` start, so the probe never reaches the product.
 */
import { runServer } from '../../src/server.ts';
import { probeJobs } from './probe.ts';

runServer((runtime) => probeJobs(runtime.store));
