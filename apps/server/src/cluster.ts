import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';

/** `workers` from the config: a number, or `auto` for one process per core. */
export const workerCount = (setting: number | 'auto') => (setting === 'auto' ? availableParallelism() : setting);

/**
 * The primary of `ATALAYA_WORKERS=N`: forks N server processes that share the port (Node's cluster
 * hands connections out round-robin), forks a replacement when one dies, and on SIGTERM/SIGINT
 * passes the signal on and exits once every worker has finished its in-flight requests.
 * `onListening` runs once, with the port, when the first worker listens.
 */
export function runPrimary(count: number, log: Logger, onListening: (port: number) => void) {
  let closing = false;
  let announced = false;
  const fork = () => cluster.fork();
  cluster.on('listening', (_worker, address) => {
    if (announced) return;
    announced = true;
    onListening(address.port);
  });
  cluster.on('exit', (worker: Worker, code, signal) => {
    if (closing) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'a server process died; starting another');
    setTimeout(fork, 1000);
  });
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down the server processes');
    const workers = Object.values(cluster.workers ?? {});
    if (workers.length === 0) process.exit(0);
    for (const worker of workers) worker?.process.kill(signal);
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  for (let i = 0; i < count; i++) fork();
}
