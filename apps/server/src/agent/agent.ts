import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';
import { WebSocket } from 'ws';
import type { Config } from '../config/config.ts';
import { BackupError } from '../drivers/backups/interface.ts';
import { createStorelessDrivers } from '../drivers/index.ts';
import { InstallRefused } from '../drivers/installer/interface.ts';
import { fingerprintOf, keyAndRequest } from '../nodes/ca.ts';
import { AGENT_PATH, type AgentMessage, CA_PATH, ENROL_PATH, NODE_AREAS, type PanelMessage } from '../nodes/protocol.ts';
import { PermanentJobError } from '../outbox/permanent.ts';
import { nodeFiles } from './files.ts';

/** What enrolment leaves in the agent's state directory: its key (0600), its certificate, the panel's CA. */
const files = (dir: string) => ({
  key: path.join(dir, 'node.key'),
  cert: path.join(dir, 'node.crt'),
  ca: path.join(dir, 'panel-ca.crt'),
  identity: path.join(dir, 'node.json'),
});

export const AGENT_VERSION = '1';

function fetchText(url: URL, options: { method?: string; body?: string; ca?: string; trustAny?: boolean }) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: options.body ? { 'content-type': 'application/json' } : {},
        ca: options.ca,
        // Only to fetch the CA certificate, which is then checked against the token's fingerprint.
        rejectUnauthorized: !options.trustAny,
        timeout: 30_000,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('the panel did not answer')));
    req.end(options.body);
  });
}

/**
 * Exchanges the one-time token for this node's certificate: the panel's CA is fetched and pinned by
 * the fingerprint the token carries, the key is made here and never sent, and the CSR goes to the
 * panel over TLS verified against that CA.
 */
export async function enrolAgent(panel: string, token: string, dir: string) {
  const f = files(dir);
  if (existsSync(f.cert)) throw new Error(`${dir} holds an enrolled agent already`);
  const [, pinned] = token.split('.');
  if (!pinned) throw new Error('this is not an enrolment token (npm run admin -- node-add prints one)');
  const ca = await fetchText(new URL(CA_PATH, panel), { trustAny: true });
  if (ca.status !== 200 || fingerprintOf(ca.text) !== pinned) throw new Error(`${panel} is not the panel that issued this token`);
  const { keyPem, csrPem } = await keyAndRequest('atalaya-agent');
  const answer = await fetchText(new URL(ENROL_PATH, panel), {
    method: 'POST',
    ca: ca.text,
    body: JSON.stringify({ token, csr: csrPem, version: AGENT_VERSION }),
  });
  if (answer.status !== 200) throw new Error(`the panel refused the enrolment: ${answer.text}`);
  const issued = JSON.parse(answer.text) as { node: string; certPem: string; caPem: string };
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(f.key, keyPem, { mode: 0o600 });
  writeFileSync(f.cert, issued.certPem, { mode: 0o644 });
  writeFileSync(f.ca, ca.text, { mode: 0o644 });
  writeFileSync(f.identity, `${JSON.stringify({ panel, node: issued.node }, null, 2)}\n`, { mode: 0o644 });
  return issued.node;
}

/**
 * Runs the agent: connects to the panel with its certificate, applies each driver call on this
 * machine's real drivers and answers it, and connects again (1 s, doubling up to 30 s) whenever the
 * link drops. Answers a function that stops it.
 */
export function runAgent(dir: string, config: Config, log: (line: string) => void = console.log) {
  const f = files(dir);
  const { panel, node } = JSON.parse(readFileSync(f.identity, 'utf8')) as { panel: string; node: string };
  const tls = { key: readFileSync(f.key), cert: readFileSync(f.cert), ca: readFileSync(f.ca) };
  const drivers = createStorelessDrivers(config, NODE_AREAS) as Record<string, Record<string, unknown>>;
  const properties: Record<string, Record<string, string | number | boolean>> = {};
  for (const [area, driver] of Object.entries(drivers)) {
    properties[area] = Object.fromEntries(
      Object.entries(driver).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)) as [string, string][],
    );
  }
  // Where this node keeps its services' files: the panel's paths in a call are rebased on it.
  properties.hosting = { webRoot: config.hosting.webRoot };
  drivers.transfer = nodeFiles(config, dir, drivers);
  const url = new URL(AGENT_PATH, panel.replace(/^http/, 'ws'));
  let stopped = false;
  let delay = 1000;
  let socket: WebSocket | undefined;
  let timer: NodeJS.Timeout | undefined;

  async function apply(ws: WebSocket, message: PanelMessage) {
    let reply: AgentMessage;
    try {
      const driver = drivers[message.area];
      if (!driver) throw new PermanentJobError(`${node} has no ${message.area} driver configured (drivers.${message.area}.driver)`);
      const method = Object.hasOwn(driver, message.method) ? driver[message.method] : undefined;
      if (typeof method !== 'function') throw new PermanentJobError(`the ${message.area} driver has no ${message.method}`);
      // A progress callback of the panel's: each step is sent back as a progress message.
      const args = message.args.map((a) =>
        a && typeof a === 'object' && (a as { $progress?: unknown }).$progress === true
          ? async (percent: number) => {
              if (ws.readyState === WebSocket.OPEN)
                ws.send(JSON.stringify({ type: 'progress', id: message.id, percent } satisfies AgentMessage));
            }
          : a,
      );
      const value = await method.apply(driver, args);
      log(`applied ${message.area}.${message.method} for job ${message.job}`);
      reply = { type: 'result', id: message.id, ok: true, value };
    } catch (error) {
      reply = {
        type: 'result',
        id: message.id,
        ok: false,
        error: String((error as Error)?.message ?? error),
        permanent: error instanceof PermanentJobError,
        // An installer's refusal keeps its message key, which the panel shows on the installation.
        ...(error instanceof InstallRefused || error instanceof BackupError ? { key: error.key } : {}),
      };
    }
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(reply));
  }

  function connect() {
    if (stopped) return;
    const ws = new WebSocket(url, { ...tls, handshakeTimeout: 15_000 });
    socket = ws;
    ws.on('open', () => {
      delay = 1000;
      log(`connected to ${panel} as ${node}`);
      ws.send(JSON.stringify({ type: 'hello', version: AGENT_VERSION, properties } satisfies AgentMessage));
    });
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as PanelMessage;
      if (message.type === 'call') void apply(ws, message);
    });
    ws.on('unexpected-response', (_req, res) => {
      log(`the panel refused ${node} (HTTP ${res.statusCode})`);
      ws.terminate();
    });
    ws.on('error', (error) => log(`link to the panel: ${error.message}`));
    ws.on('close', () => {
      if (stopped) return;
      timer = setTimeout(connect, delay);
      delay = Math.min(30_000, delay * 2);
    });
  }
  connect();
  return () => {
    stopped = true;
    clearTimeout(timer);
    socket?.close();
  };
}
