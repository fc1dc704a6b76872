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

/**
 * A receiver that answers 200 and then a body without end (up to `cap` bytes, so that a panel that
 * reads it all still ends): it counts what it wrote, respecting back-pressure, and notes when the
 * panel closed the connection.
 */
export function endlessReceiver(cap: number) {
  const state = { written: 0, closed: false, start: `accepted ${'x'.repeat(600)}` };
  const server = createServer((req, res) => {
    req.resume();
    res.on('close', () => {
      state.closed = true;
    });
    res.writeHead(200, { 'content-type': 'text/plain' });
    const chunk = Buffer.alloc(64 * 1024, 'y');
    const pump = () => {
      while (!res.destroyed && state.written < cap) {
        const data = state.written === 0 ? Buffer.concat([Buffer.from(state.start), chunk]) : chunk;
        state.written += data.length;
        if (!res.write(data)) return void res.once('drain', pump);
      }
      if (!res.destroyed) res.end();
    };
    pump();
  });
  return { server, state };
}
