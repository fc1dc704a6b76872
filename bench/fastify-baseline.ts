/**
 * A reference point, not a budget: Fastify with the panel's own request logging (the same logger,
 * one line per request) answering the bare server's body from one route. The distance between it
 * and the bare server is the framework's and the log line's; the distance between it and a panel
 * call is the panel's own work (decision 024). Prints `listening <port>` once it listens.
 */
import Fastify from 'fastify';
import { createLogger, requestLogging } from '../apps/server/src/logger.ts';
import { BARE_BODY, BARE_HEADERS } from './bare.ts';

const logged = !process.argv.includes('--no-log');
const app = Fastify({
  ...requestLogging(logged ? createLogger({ logLevel: 'info' }) : undefined),
  requestIdHeader: false,
});
app.get('/', (_request, reply) => reply.headers(BARE_HEADERS).send(BARE_BODY));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${(app.server.address() as { port: number }).port}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
