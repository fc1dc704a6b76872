/**
 * The baseline: a bare node:http server answering a small JSON envelope, run in its own process by
 * the bench so it is loaded exactly as the panel is. Prints `listening <port>` once it listens.
 *
 * `--work <µs>` makes it spend that much CPU on each request before answering: a reference point
 * that says what a budget ratio leaves for a handler's own work on this machine (decision 024).
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';

export const BARE_BODY = JSON.stringify({
  system: { valid: true, errors: [], inputs: [], info: [], statusCode: 200, debug: [], job: null, mlcVer: '1' },
  data: { company: 'Atalaya' },
});
export const BARE_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'x-dd': '1' };

/** Spends `micros` of CPU without allocating, so the collector adds nothing the figure does not name. */
function spin(micros: number) {
  const until = performance.now() + micros / 1000;
  while (performance.now() < until);
}

if (import.meta.main) {
  const work = Number(parseArgs({ options: { work: { type: 'string', default: '0' } } }).values.work);
  const server = createServer((_req, res) => {
    if (work > 0) spin(work);
    res.writeHead(200, BARE_HEADERS);
    res.end(BARE_BODY);
  });
  server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
