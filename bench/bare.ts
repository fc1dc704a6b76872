/**
 * The baseline: a bare node:http server answering a small JSON envelope, run in its own process by
 * the bench so it is loaded exactly as the panel is. Prints `listening <port>` once it listens.
 */
import { createServer } from 'node:http';

const body = JSON.stringify({
  system: { valid: true, errors: [], inputs: [], info: [], statusCode: 200, debug: [], job: null, mlcVer: '1' },
  data: { company: 'Atalaya' },
});
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-dd': '1' });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => console.log(`listening ${(server.address() as { port: number }).port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
