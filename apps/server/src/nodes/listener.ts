import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { type RawData, WebSocket, WebSocketServer } from 'ws';
import { BackupError, type BackupErrorKey } from '../drivers/backups/interface.ts';
import { InstallRefused } from '../drivers/installer/interface.ts';
import type { Runtime } from '../kernel/runtime.ts';
import { PermanentJobError } from '../outbox/permanent.ts';
import { panelCa, serverCertificate } from './ca.ts';
import { enrol, nodeOfCertificate, touchNode } from './nodes.ts';
import { AGENT_PATH, agentMessageSchema, CA_PATH, ENROL_PATH, type PanelMessage, type RemoteArea } from './protocol.ts';
import { inNode, type NodeLink } from './remote.ts';
import type { NodeRow } from './tables.ts';

/** How often a connected agent's node row is read again: a node removed meanwhile is cut off by then. */
const RECHECK_MS = 1000;
/** The keys a backup's failure travels with from an agent (drivers/backups/interface.ts). */
const BACKUP_KEY = /^backups\.[a-z_]{1,40}$/;
/** Every how many re-checks its last contact is written: what shows a change as waiting for the node reads it. */
export const CONTACT_EVERY = 5;
const MAX_BODY = 64 * 1024;

export interface NodeListener {
  port: number;
  close(): Promise<void>;
}

type Log = (err: unknown, context?: Record<string, unknown>) => void;

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new Error('too large');
    chunks.push(chunk as Buffer);
  }
  const value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  return typeof value === 'object' && value !== null ? value : {};
}

function answer(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** An agent's message, parsed and checked against the protocol; null for anything else (not JSON, another shape). */
function agentMessageOf(data: RawData) {
  try {
    const parsed = agentMessageSchema.safeParse(JSON.parse(String(data)));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The node a TLS socket's client certificate names, checked against the node row (never the CA alone). */
async function identify(runtime: Runtime, socket: TLSSocket): Promise<NodeRow | null> {
  if (!socket.authorized) return null;
  const cert = socket.getPeerCertificate();
  const name = cert?.subject?.CN;
  if (typeof name !== 'string' || !cert.serialNumber) return null;
  return nodeOfCertificate(runtime.store, name, cert.serialNumber);
}

/**
 * The port agents reach the panel on (decision 040): TLS under the panel's own CA, client
 * certificates requested and checked against that CA. Only the enrolment (`POST /enrol`, which is
 * how an agent gets its certificate) is answered without one; the agent's WebSocket needs a valid
 * certificate of a node that is active or draining, read from the store at every upgrade and every
 * second after.
 */
export async function startNodeListener(runtime: Runtime, log: Log = () => {}): Promise<NodeListener> {
  const { store, secrets, config } = runtime;
  const ca = await panelCa(store, secrets);
  const own = await serverCertificate(ca, config.nodes.hosts);
  const connections = new Map<number, WebSocket>();
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 });

  const server = createServer(
    { key: own.key, cert: own.cert, ca: [ca.certPem], requestCert: true, rejectUnauthorized: false, minVersion: 'TLSv1.2' },
    (request, response) => {
      if (request.method === 'GET' && request.url === CA_PATH) {
        response.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(ca.certPem);
        return;
      }
      if (request.method !== 'POST' || request.url !== ENROL_PATH) return answer(response, 404, { error: 'not found' });
      void (async () => {
        try {
          const body = await readJson(request);
          const { token, csr, version } = body;
          if (typeof token !== 'string' || typeof csr !== 'string') return answer(response, 400, { error: 'token and csr are needed' });
          const issued = await enrol(store, ca, token, csr, typeof version === 'string' ? version.slice(0, 64) : 'unknown');
          if (!issued) return answer(response, 403, { error: 'this enrolment token is unknown, used or expired' });
          answer(response, 200, issued);
        } catch (error) {
          log(error, { nodes: 'enrolment' });
          if (!response.headersSent) answer(response, 400, { error: 'bad enrolment request' });
        }
      })();
    },
  );

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    void (async () => {
      const node = request.url === AGENT_PATH ? await identify(runtime, socket as TLSSocket).catch(() => null) : null;
      if (!node) {
        socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      sockets.handleUpgrade(request, socket, head, (ws) => serveAgent(node, ws, socket as TLSSocket));
    })();
  });

  /** One agent's connection: its node's worker runs while it is open, every driver call goes to it. */
  function serveAgent(node: NodeRow, ws: WebSocket, socket: TLSSocket) {
    connections.get(node.id)?.terminate();
    connections.set(node.id, ws);
    const calls = new Map<
      number,
      { resolve(value: unknown): void; reject(error: Error): void; onProgress?: (percent: number) => unknown }
    >();
    let nextId = 0;
    let worker: ReturnType<Runtime['outbox']['startFor']> | undefined;
    let link: NodeLink | undefined;

    const call = (area: RemoteArea, method: string, args: unknown[], job: number, onProgress?: (percent: number) => unknown) =>
      new Promise<unknown>((resolve, reject) => {
        if (ws.readyState !== WebSocket.OPEN) return reject(new Error(`the node ${node.name} is not connected`));
        const id = ++nextId;
        calls.set(id, { resolve, reject, onProgress });
        const message: PanelMessage = { type: 'call', id, job, area, method, args };
        ws.send(JSON.stringify(message));
      });

    let ticks = 0;
    const recheck = setInterval(() => {
      void identify(runtime, socket)
        .then(async (still) => {
          if (!still) ws.terminate();
          else if (++ticks % CONTACT_EVERY === 0) await touchNode(store, node.id);
        })
        .catch((error) => log(error, { node: node.name }));
    }, RECHECK_MS);

    ws.on('message', (data) => {
      const message = agentMessageOf(data);
      if (!message) {
        log(new Error('the agent sent a message that is not the protocol: its connection is closed'), { node: node.name });
        return ws.terminate();
      }
      if (message.type === 'hello' && !worker) {
        const own: NodeLink = { call, properties: message.properties, name: node.name };
        link = own;
        runtime.nodes.set(node.id, own);
        void touchNode(store, node.id, message.version.slice(0, 64)).catch(log);
        worker = runtime.outbox.startFor({
          node: node.id,
          around: (run, job) => inNode({ ...own, job: job.id }, run),
        });
        return;
      }
      if (message.type === 'progress') {
        if (message.percent !== null) void Promise.resolve(calls.get(message.id)?.onProgress?.(message.percent)).catch(log);
        return;
      }
      if (message.type !== 'result') return;
      // Only a call made on this very connection can be answered: another node's jobs are never sent here.
      const pending = calls.get(message.id);
      if (!pending) return;
      calls.delete(message.id);
      if (message.ok) pending.resolve(message.value);
      // A backup's failure keeps its key (an unreachable or full repository, a path refused): the screen translates it.
      else if (typeof message.key === 'string' && BACKUP_KEY.test(message.key))
        pending.reject(
          new BackupError(
            message.key as BackupErrorKey,
            message.error.startsWith(`${message.key}: `) ? message.error.slice(message.key.length + 2, 2000) : undefined,
          ),
        );
      else if (message.permanent && typeof message.key === 'string') pending.reject(new InstallRefused(message.key.slice(0, 200)));
      else pending.reject(message.permanent ? new PermanentJobError(message.error) : new Error(message.error));
    });

    ws.on('close', () => {
      clearInterval(recheck);
      if (connections.get(node.id) === ws) connections.delete(node.id);
      if (link) runtime.nodes.drop(node.id, link);
      for (const pending of calls.values()) pending.reject(new Error(`the node ${node.name} disconnected`));
      calls.clear();
      worker?.stop();
    });
    ws.on('error', (error) => log(error, { node: node.name }));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.nodes.port ?? 0, config.nodes.host, () => resolve());
  });
  return {
    port: (server.address() as { port: number }).port,
    async close() {
      for (const ws of connections.values()) ws.terminate();
      sockets.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
