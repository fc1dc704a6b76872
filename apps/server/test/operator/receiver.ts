import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The receiver's side, as docs/operator-api.md shows it: recompute the HMAC over "<t>.<body>" and compare in constant time. */
export function verify(secret: string, header: string | undefined, body: string) {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  const fresh = Math.abs(Date.now() / 1000 - Number(parts.t)) < 300;
  return fresh && given.length === 32 && timingSafeEqual(given, Buffer.from(expected, 'hex'));
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver on loopback answering the given statuses in turn (200 once they run out). */
export function receiver(statuses: number[]) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses.shift() ?? 200, { 'content-type': 'text/plain' }).end('seen');
    });
  });
  return { server, received };
}
export const listen = (server: Server, port = 0) =>
  new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
export const close = (server: Server) => new Promise((resolve) => server.close(resolve));
