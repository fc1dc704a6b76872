import { createServer as createHttpServer, type Server as HttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createServer, type Server, type TLSSocket } from 'node:tls';
import { completePending, type PendingAction } from './commands.ts';
import { DEFAULT_POLICY, type Policy } from './context.ts';
import { domainStatuses, domainTransfer } from './domains.ts';
import { type Faults, faultsProblem } from './faults.ts';
import { advanceLifecycle } from './lifecycle.ts';
import { EppError } from './results.ts';
import { Session } from './session.ts';
import { RegistryState } from './state.ts';
import { type Element, NS, x } from './xml.ts';

export interface RegistryOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  /** PEM: the server's certificate and key, and the CA that signs the clients' certificates. */
  cert: string;
  key: string;
  ca: string;
  /** Client id → password. */
  clients: Record<string, string>;
  policy?: Partial<Policy>;
  /** A JSON file the state is read from at start and written to after each change. */
  stateFile?: string;
  idleTimeoutMs?: number;
  maxFrameBytes?: number;
  /** The loopback HTTP control interface's port (0 picks one); none when not given. */
  controlPort?: number;
  svID?: string;
  /** The registry's clock (a test moves it to reach the end of a redemption period). */
  now?: () => Date;
}

type Resolved = Required<Omit<RegistryOptions, 'stateFile' | 'controlPort' | 'policy' | 'now'>>;

/** A running test registry: its ports, state, policy and faults, and the calls a test makes on it. */
export class TestRegistry {
  readonly options: Resolved;
  readonly state: RegistryState;
  readonly policy: Policy;
  faults: Faults = {};
  readonly pending: PendingAction[] = [];
  port = 0;
  controlPort?: number;
  /** The registry's time: the clock it was given, moved forward by `advanceClock`. */
  readonly now: () => Date;
  private clockOffsetMs = 0;
  private readonly sessions = new Set<Session>();
  private readonly sockets = new Set<TLSSocket>();
  private readonly commandTimes = new Map<string, number[]>();
  private server?: Server;
  private control?: HttpServer;
  private nextPendingId = 1;
  private held: Array<() => void> = [];

  constructor(options: RegistryOptions) {
    this.options = {
      port: 0,
      host: '127.0.0.1',
      idleTimeoutMs: 600_000,
      maxFrameBytes: 1_048_576,
      svID: 'Atalaya test registry',
      ...options,
      clients: { ...options.clients },
    } as Resolved;
    this.state = new RegistryState(options.stateFile);
    this.policy = { ...DEFAULT_POLICY, ...options.policy };
    const clock = options.now ?? (() => new Date());
    this.now = () => new Date(clock().getTime() + this.clockOffsetMs);
  }

  /** Moves the registry's clock forward (never back) and lets what falls due happen: expiries, deletions, transfers approved. */
  advanceClock(ms: number): Date {
    if (!(ms >= 0)) throw new RangeError('the clock only moves forward');
    this.clockOffsetMs += ms;
    this.tick();
    return this.now();
  }

  /** Applies what the clock made due (run before each command, too). */
  tick(): void {
    advanceLifecycle({ state: this.state, policy: this.policy, now: this.now() });
    this.state.save();
  }

  /**
   * A domain transfer command from another registrar account (`request`, `approve`, `reject`,
   * `cancel` or `query`), as that client would send it: the second account a test needs to move a
   * domain away from the panel, or to answer the panel's request. Answers the EPP result code.
   */
  transferAs(clID: string, name: string, op: string, authInfo?: string, years = 1): { code: number; reason?: string } {
    if (!(clID in this.options.clients)) return { code: 2200, reason: `no client ${clID}` };
    const el = (local: string, text = '', children: Element[] = [], attrs: Record<string, string> = {}): Element => ({
      ns: NS.domain,
      local,
      attrs,
      children,
      text,
    });
    const body = el('transfer', '', [
      el('name', name),
      ...(op === 'request' ? [el('period', String(years), [], { unit: 'y' })] : []),
      ...(authInfo === undefined ? [] : [el('authInfo', '', [el('pw', authInfo)])]),
    ]);
    this.tick();
    try {
      const reply = domainTransfer({
        clID,
        state: this.state,
        policy: this.policy,
        now: this.now(),
        cmd: { verb: 'transfer', object: 'domain', body, op, extensions: [] },
      });
      this.state.save();
      return { code: reply.code };
    } catch (error) {
      if (!(error instanceof EppError)) throw error;
      return { code: error.code, reason: error.message };
    }
  }

  async listen(controlPort?: number): Promise<this> {
    const server = createServer({
      cert: this.options.cert,
      key: this.options.key,
      ca: this.options.ca,
      requestCert: true,
      rejectUnauthorized: true,
      minVersion: 'TLSv1.2',
    });
    server.on('secureConnection', (socket) => {
      this.sockets.add(socket);
      const session = new Session(socket, this);
      this.sessions.add(session);
      socket.on('close', () => {
        this.sockets.delete(socket);
        this.sessions.delete(session);
      });
    });
    // A client whose certificate the CA did not sign never gets a session; nothing to do but drop it.
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.options.port, this.options.host, resolve);
    });
    this.server = server;
    this.port = (server.address() as AddressInfo).port;
    if (controlPort !== undefined) await this.listenControl(controlPort);
    return this;
  }

  sessionsOf(clID: string): number {
    return [...this.sessions].filter((s) => s.clID === clID).length;
  }

  setFaults(faults: Faults): void {
    this.faults = { ...this.faults, ...structuredClone(faults) };
  }

  clearFaults(): void {
    this.faults = {};
    this.commandTimes.clear();
    this.releaseHeld();
  }

  /** Waits, when the `hold` fault names this command, until the test releases it. */
  async holdIfAsked(key: string): Promise<void> {
    if (!this.faults.hold?.includes(key)) return;
    await new Promise<void>((resolve) => this.held.push(resolve));
  }

  /** How many commands the `hold` fault is holding now. */
  heldCount(): number {
    return this.held.length;
  }

  /** Lets every held command run (the `hold` fault stays for the next ones); answers how many it let go. */
  releaseHeld(): number {
    const held = this.held;
    this.held = [];
    for (const resolve of held) resolve();
    return held.length;
  }

  /** Whether this command is over the limit (`refuse`), after waiting for room when the mode is `queue`. */
  async rateLimit(clID: string, limit: NonNullable<Faults['rateLimit']>): Promise<boolean> {
    for (;;) {
      const now = Date.now();
      const times = (this.commandTimes.get(clID) ?? []).filter((t) => now - t < limit.perMs);
      this.commandTimes.set(clID, times);
      if (times.length < limit.commands) {
        times.push(now);
        return false;
      }
      if (limit.mode === 'refuse') return true;
      await sleep(limit.perMs - (now - times[0]) + 1);
    }
  }

  addPending(action: Omit<PendingAction, 'id'>): void {
    this.pending.push({ ...action, id: this.nextPendingId++ });
  }

  /** Completes the oldest pending action (or the one with this id): applied when `approve`, refused otherwise. */
  completePending(approve = true, id?: number): PendingAction | undefined {
    const index = id === undefined ? 0 : this.pending.findIndex((p) => p.id === id);
    const action = index >= 0 ? this.pending[index] : undefined;
    if (!action) return undefined;
    this.pending.splice(index, 1);
    completePending({ clID: action.clID, state: this.state, policy: this.policy, now: this.now() }, action, approve);
    this.state.save();
    return action;
  }

  /** A message of the registry's own for a client's poll queue (a test's "message the panel cannot read"). */
  queueMessage(clID: string, msg: string): void {
    this.state.queue(clID, msg, undefined, this.now());
    this.state.save();
  }

  /**
   * Sets or lifts server statuses (`serverUpdateProhibited`…), which only the registry may set;
   * with `notify`, a domain's sponsor is told through its poll queue, the domain's data (RFC 5731
   * infData: name, roid, statuses, sponsor) in the message.
   */
  serverStatus(object: 'domain' | 'host' | 'contact', name: string, add: string[] = [], rem: string[] = [], notify = false): boolean {
    const table = object === 'domain' ? this.state.data.domains : object === 'host' ? this.state.data.hosts : this.state.data.contacts;
    const target = table[object === 'contact' ? name : name.toLowerCase()];
    if (!target) return false;
    target.statuses = [...target.statuses.filter((s) => !rem.includes(s.s) && !add.includes(s.s)), ...add.map((s) => ({ s }))];
    if (notify && object === 'domain') {
      const domain = this.state.data.domains[name.toLowerCase()];
      const infData = x('domain:infData', { 'xmlns:domain': NS.domain }, [
        x('domain:name', {}, domain.name),
        x('domain:roid', {}, domain.roid),
        ...domainStatuses(domain).map((s) => x('domain:status', { s: s.s })),
        x('domain:clID', {}, domain.clID),
      ]);
      this.state.queue(domain.clID, `Server status of ${domain.name} changed by the registry`, infData, this.now());
    }
    this.state.save();
    return true;
  }

  /** `poll op="req"` (the oldest message, 1300 when none) and `poll op="ack"` (2303 for an unknown id). */
  poll(clID: string, poll: Element) {
    this.tick();
    const mine = () => this.state.data.messages.filter((m) => m.clID === clID);
    if (poll.attrs.op === 'req') {
      const [first] = mine();
      if (!first) return { code: 1300 };
      return {
        code: 1301,
        msgQ: x('msgQ', { count: String(mine().length), id: first.id }, [x('qDate', {}, first.qDate), x('msg', {}, first.msg)]),
        resData: first.resData,
      };
    }
    const id = poll.attrs.msgID;
    if (!id) return { code: 2003, reason: 'poll op="ack" needs a msgID' };
    const message = mine().find((m) => m.id === id);
    if (!message) return { code: 2303, reason: `no message ${id} in this client's queue`, value: id };
    this.state.data.messages = this.state.data.messages.filter((m) => m !== message);
    this.state.save();
    return { code: 1000, msgQ: x('msgQ', { count: String(mine().length), id }) };
  }

  private async listenControl(port: number): Promise<void> {
    const control = createHttpServer((request, response) => {
      this.control_(request, response).catch((error) => reply(response, 500, { error: (error as Error).message }));
    });
    await new Promise<void>((resolve, reject) => {
      control.once('error', reject);
      control.listen(port, '127.0.0.1', resolve);
    });
    this.control = control;
    this.controlPort = (control.address() as AddressInfo).port;
  }

  /** The control interface: loopback only, JSON in and out. */
  private async control_(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const route = `${request.method} ${request.url}`;
    const body = request.method === 'POST' ? await readJson(request) : undefined;
    if (body instanceof Error) return reply(response, 400, { error: body.message });
    const input = (body ?? {}) as Record<string, unknown>;
    switch (route) {
      case 'GET /faults':
        return reply(response, 200, this.faults);
      case 'POST /faults': {
        const problem = faultsProblem(input);
        if (problem) return reply(response, 400, { error: problem });
        this.setFaults(input as Faults);
        return reply(response, 200, this.faults);
      }
      case 'DELETE /faults':
        this.clearFaults();
        return reply(response, 200, this.faults);
      case 'GET /held':
        return reply(response, 200, { held: this.heldCount() });
      case 'POST /held/release':
        return reply(response, 200, { released: this.releaseHeld() });
      case 'GET /pending':
        return reply(
          response,
          200,
          this.pending.map(({ id, key, clID, svTRID }) => ({ id, key, clID, svTRID })),
        );
      case 'POST /pending/complete': {
        const done = this.completePending(input.approve !== false, typeof input.id === 'number' ? input.id : undefined);
        return done ? reply(response, 200, { id: done.id, key: done.key }) : reply(response, 404, { error: 'no such pending action' });
      }
      case 'POST /messages':
        this.queueMessage(String(input.clID), String(input.msg));
        return reply(response, 200, {});
      case 'POST /server-status': {
        const done = this.serverStatus(
          input.object as 'domain',
          String(input.name),
          input.add as string[],
          input.rem as string[],
          input.notify === true,
        );
        return done ? reply(response, 200, {}) : reply(response, 404, { error: 'no such object' });
      }
      case 'GET /clock':
        return reply(response, 200, { now: this.now().toISOString() });
      case 'POST /clock': {
        const ms = Number(input.days ?? 0) * 86_400_000 + Number(input.ms ?? 0);
        if (!(ms >= 0)) return reply(response, 400, { error: 'days and ms move the clock forward: numbers, zero or more' });
        return reply(response, 200, { now: this.advanceClock(ms).toISOString() });
      }
      case 'POST /transfer': {
        const op = String(input.op ?? 'request');
        if (!['request', 'approve', 'reject', 'cancel', 'query'].includes(op)) return reply(response, 400, { error: `unknown op ${op}` });
        const authInfo = input.authInfo === undefined ? undefined : String(input.authInfo);
        const years = input.years === undefined ? 1 : Number(input.years);
        return reply(response, 200, this.transferAs(String(input.clID), String(input.name), op, authInfo, years));
      }
      case 'GET /state':
        this.tick();
        return reply(response, 200, this.state.data);
      case 'POST /reset':
        this.state.reset();
        this.pending.length = 0;
        return reply(response, 200, {});
      case 'GET /sessions':
        return reply(response, 200, { connections: this.sockets.size, loggedIn: [...this.sessions].filter((s) => s.clID).length });
      default:
        return reply(response, 404, { error: `no route ${route}` });
    }
  }

  /** Drops every connection (a registry restart, as a test sees it). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  async close(): Promise<void> {
    this.releaseHeld();
    this.dropConnections();
    await Promise.all([
      new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.control ? this.control.close(() => resolve()) : resolve())),
    ]);
  }
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return new Error('the body is not JSON');
  }
}

/** Starts a registry; `controlPort` (0 for any) also opens the loopback control interface. */
export async function startRegistry(options: RegistryOptions): Promise<TestRegistry> {
  return new TestRegistry(options).listen(options.controlPort);
}
