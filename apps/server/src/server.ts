import cluster from 'node:cluster';
import { type AppOptions, buildApp } from './app.ts';
import { runPrimary, workerCount } from './cluster.ts';
import { type Config, ConfigError, loadConfig } from './config/config.ts';
import { seedDemoIfEmpty } from './demo/seed.ts';
import { originWarning } from './http/origins.ts';
import { createLogger, type Logger } from './logger.ts';
import { releaseMemoryWhenQuiet } from './memory.ts';
import { createRuntime } from './runtime.ts';
import { openStore } from './store/db.ts';
import { surviveUncaughtErrors } from './survive.ts';

// Set once the configuration is read: its level decides what is logged.
let log: Logger | undefined;

type Demo = Awaited<ReturnType<typeof seedDemoIfEmpty>>;

function announce(config: Config, port: number, demo: Demo, processes: number) {
  console.log(`\nAtalaya is running at http://localhost:${port}/${processes > 1 ? ` (${processes} server processes)` : ''}`);
  const warning = originWarning(config);
  if (warning) console.warn(warning);
  if (demo) {
    console.log(`Demo sign-in: domain name "${demo.realm}", users "demo" (write) and "viewer" (read only)`);
    console.log(`Password: ${demo.password}${demo.generated ? ' (generated; set ATALAYA_DEMO_PASSWORD to choose it)' : ''}\n`);
  }
}

/** With ATALAYA_WORKERS > 1: migrate and seed once, then fork the server processes. */
async function primary(config: Config, processes: number, log: Logger) {
  const store = await openStore(config);
  const runtime = createRuntime(config, store);
  const demo = await seedDemoIfEmpty(runtime);
  await runtime.close();
  await store.destroy();
  runPrimary(processes, log, (port) => announce(config, port, demo, processes));
}

/** One server process: alone, or one of the cluster's workers (which leave the seeding to the primary). */
async function serve(config: Config, log: Logger, testJobs: AppOptions['testJobs']) {
  const store = await openStore(config);
  const app = await buildApp({ config, store, logger: log, testJobs });
  const demo = cluster.isWorker ? null : await seedDemoIfEmpty(app.runtime);
  // What a load made V8 take is given back once it is over (decision 065).
  const quiet = releaseMemoryWhenQuiet(app, { log });
  app.addHook('onClose', async () => quiet.stop());
  let closing = false;
  let closeNodes = async () => {};
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    await closeNodes();
    await app.close(); // stops accepting, lets in-flight requests and running jobs finish, then runs onClose hooks
    await store.destroy();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (!cluster.isWorker) announce(config, (app.server.address() as { port: number }).port, demo, 1);
  if (config.nodes.port !== undefined) {
    // Loaded only where nodes are configured: its certificate library is not every panel's.
    const { startNodeListener } = await import('./nodes/listener.ts');
    const nodes = await startNodeListener(app.runtime, (err, context) => log?.error({ err, ...context }, 'nodes'));
    closeNodes = () => nodes.close();
    if (!cluster.isWorker) console.log(`Hosting nodes connect at https://${config.nodes.hosts[0]}:${nodes.port}/`);
  }
}

async function main(testJobs: AppOptions['testJobs']) {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  log = createLogger(config);
  // In every process of the server: the single one, the cluster's primary and each of its workers.
  surviveUncaughtErrors(log);
  const processes = workerCount(config.workers);
  if (processes > 1 && cluster.isPrimary) await primary(config, processes, log);
  else await serve(config, log, testJobs);
}

const failed = (error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(2);
  }
  if (log) log.fatal({ err: error }, 'start failed');
  else console.error(error);
  process.exit(1);
};

/**
 * Starts the server as `npm start` does. A test's own entry (test/scale/probe-server.ts) calls it
 * with job kinds of its own; run directly, it has the areas' only.
 */
export const runServer = (testJobs?: AppOptions['testJobs']) => void main(testJobs).catch(failed);

if (import.meta.main) runServer();
