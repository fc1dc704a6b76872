import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config/config.ts';
import { seedDemoIfEmpty } from './demo/seed.ts';
import { openStore } from './store/db.ts';

const log = pino({ redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'] });

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const store = await openStore(config);
  const demo = await seedDemoIfEmpty(store, config);
  const app = await buildApp({ config, store, logger: log });
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down: finishing in-flight requests');
    await app.close(); // stops accepting, lets in-flight requests finish, then runs onClose hooks
    await store.destroy();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const url = `http://localhost:${(app.server.address() as { port: number }).port}/`;
  console.log(`\nAtalaya is running at ${url}`);
  if (demo) {
    console.log(`Demo sign-in: domain name "${demo.realm}", users "demo" (write) and "viewer" (read only)`);
    console.log(`Password: ${demo.password}${demo.generated ? ' (generated; set ATALAYA_DEMO_PASSWORD to choose it)' : ''}\n`);
  }
}

main().catch((error) => {
  log.fatal({ err: error }, 'start failed');
  process.exit(1);
});
