import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TLSSocket } from 'node:tls';
import { commandKey, deferCommand, readCommand, runCommand } from './commands.ts';
import type { Ctx, Reply } from './context.ts';
import { takeShot } from './faults.ts';
import { GrammarError, validateRoot } from './grammar.ts';
import { closesSession, EppError, RESULT_MESSAGES } from './results.ts';
import { clientFrame, EXTENSION_URIS, OBJECT_URIS } from './schema.ts';
import type { TestRegistry } from './server.ts';
import { buildXml, child, type Element, type Node, NS, parseXml, XmlError, x } from './xml.ts';

/** Commands that change nothing: the state file is not rewritten after them. */
const READS = new Set(['check', 'info']);
const VERBS = new Set(['check', 'create', 'delete', 'info', 'login', 'logout', 'poll', 'renew', 'transfer', 'update']);
let svCounter = 0;
const svPrefix = randomBytes(3).toString('hex').toUpperCase();
/** A server transaction id unique across the registry's runs (a random prefix, then a counter). */
const nextSvTRID = () => `ATALAYA-${svPrefix}-${++svCounter}`;

interface Answer extends Reply {
  reason?: string;
  value?: string;
  clTRID?: string;
  msgQ?: Node;
  svTRID?: string;
}

/**
 * One TLS connection (RFC 5734): 4-byte big-endian length-prefixed frames, the greeting on connect,
 * then commands answered one at a time in the order they came.
 */
export class Session {
  clID?: string;
  private closing = false;
  private failedLogins = 0;
  private buffer = Buffer.alloc(0);
  private chain: Promise<void> = Promise.resolve();
  private objURIs: string[] = [];
  private extURIs: string[] = [];
  private readonly socket: TLSSocket;
  private readonly registry: TestRegistry;

  constructor(socket: TLSSocket, registry: TestRegistry) {
    this.socket = socket;
    this.registry = registry;
    socket.setTimeout(registry.options.idleTimeoutMs);
    socket.on('timeout', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => socket.destroy());
    this.send(this.greeting());
  }

  private receive(chunk: Buffer): void {
    if (this.closing) return;
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 4) {
      const length = this.buffer.readUInt32BE(0);
      if (length <= 4 || length > this.registry.options.maxFrameBytes) {
        // The stream cannot be trusted past a bad length: answer once, read nothing more, close.
        this.closing = true;
        this.buffer = Buffer.alloc(0);
        const reason = `a frame of ${length} bytes is outside 5 to ${this.registry.options.maxFrameBytes}`;
        this.chain = this.chain.then(() => this.answer({ code: 2500, reason }));
        return;
      }
      if (this.buffer.length < length) return;
      const frame = this.buffer.subarray(4, length).toString('utf8');
      this.buffer = this.buffer.subarray(length);
      this.chain = this.chain.then(() => this.handle(frame)).catch((error) => this.crash(error));
    }
  }

  private crash(error: unknown): void {
    console.error('registry: a command failed inside the server', error);
    this.socket.destroy();
  }

  private send(xml: string, cut = false): void {
    if (this.socket.destroyed) return;
    const body = Buffer.from(xml, 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(body.length + 4);
    const frame = Buffer.concat([header, body]);
    if (cut) {
      this.socket.write(frame.subarray(0, Math.ceil(frame.length / 2)), () => this.socket.destroy());
    } else {
      this.socket.write(frame);
    }
  }

  private greeting(): string {
    return buildXml(
      x('epp', { xmlns: NS.epp }, [
        x('greeting', {}, [
          x('svID', {}, this.registry.options.svID),
          x('svDate', {}, this.registry.now().toISOString()),
          x('svcMenu', {}, [
            x('version', {}, '1.0'),
            x('lang', {}, 'en'),
            ...OBJECT_URIS.map((uri) => x('objURI', {}, uri)),
            x(
              'svcExtension',
              {},
              EXTENSION_URIS.map((uri) => x('extURI', {}, uri)),
            ),
          ]),
          x('dcp', {}, [
            x('access', {}, [x('all')]),
            x('statement', {}, [
              x('purpose', {}, [x('admin'), x('prov')]),
              x('recipient', {}, [x('ours'), x('public')]),
              x('retention', {}, [x('stated')]),
            ]),
          ]),
        ]),
      ]),
    );
  }

  private answer(answer: Answer, cut = false): void {
    const svTRID = answer.svTRID ?? nextSvTRID();
    const result = x('result', { code: String(answer.code) }, [
      x('msg', {}, RESULT_MESSAGES[answer.code] ?? 'Command failed'),
      answer.reason !== undefined &&
        x('extValue', {}, [x('value', {}, [x('text', {}, answer.value ?? '')]), x('reason', {}, answer.reason)]),
    ]);
    this.send(
      buildXml(
        x('epp', { xmlns: NS.epp }, [
          x('response', {}, [
            result,
            answer.msgQ,
            answer.resData && x('resData', {}, [answer.resData]),
            answer.extension?.length && x('extension', {}, answer.extension),
            x('trID', {}, [answer.clTRID !== undefined && x('clTRID', {}, answer.clTRID), x('svTRID', {}, svTRID)]),
          ]),
        ]),
      ),
      cut,
    );
    if (!cut && closesSession(answer.code)) {
      // Nothing sent after a closing answer is read, even a command already in the buffer.
      this.closing = true;
      this.socket.end();
    }
  }

  private async handle(frame: string): Promise<void> {
    if (this.socket.destroyed || this.closing) return;
    let root: Element;
    try {
      root = parseXml(frame);
    } catch (error) {
      if (!(error instanceof XmlError)) throw error;
      return this.answer({ code: 2001, reason: error.message });
    }
    const command = child(root, NS.epp, 'command');
    const clTRID = child(command, NS.epp, 'clTRID')?.text;
    const key = child(root, NS.epp, 'hello') ? 'hello' : commandKey(command);
    const faults = this.registry.faults;
    if (faults.delayMs) await sleep(faults.delayMs);
    await this.registry.holdIfAsked(key);
    if (this.socket.destroyed) return;
    if (this.clID && faults.rateLimit) {
      const refused = await this.registry.rateLimit(this.clID, faults.rateLimit);
      if (refused) return this.answer({ code: 2502, reason: 'command rate limit exceeded', clTRID });
    }
    if (takeShot(faults.drop?.when === 'before' ? faults.drop : undefined, key)) {
      this.socket.destroy();
      return;
    }
    if (takeShot(faults.answer, key))
      return this.answer({ code: faults.answer?.code ?? 2400, reason: 'fault injected by the test registry', clTRID });
    const cut = takeShot(faults.drop?.when === 'mid-response' ? faults.drop : undefined, key);
    const verb = command?.children[0];
    if (verb && verb.ns === NS.epp && !VERBS.has(verb.local)) {
      return this.answer({ code: 2000, reason: `<${verb.local}> is not an EPP command`, value: verb.local, clTRID }, cut);
    }
    try {
      validateRoot(root, clientFrame);
    } catch (error) {
      if (!(error instanceof GrammarError)) throw error;
      return this.answer({ code: 2001, reason: error.message, clTRID }, cut);
    }
    if (!command) return this.send(this.greeting());
    const svTRID = nextSvTRID();
    try {
      this.answer({ ...this.dispatch(command, key, svTRID), clTRID, svTRID }, cut);
    } catch (error) {
      if (!(error instanceof EppError)) throw error;
      this.answer({ code: error.code, reason: error.message, value: error.value, clTRID, svTRID }, cut);
    }
  }

  private dispatch(command: Element, key: string, svTRID: string): Answer {
    if (key === 'login') return this.login(command.children[0]);
    if (!this.clID) return { code: 2002, reason: 'log in first' };
    if (key === 'logout') {
      this.clID = undefined;
      return { code: 1500 };
    }
    if (key === 'poll') return this.registry.poll(this.clID, command.children[0]);
    const cmd = readCommand(command, this.extURIs, this.objURIs);
    const registry = this.registry;
    const ctx: Ctx = { clID: this.clID, state: registry.state, policy: registry.policy, now: registry.now(), cmd };
    if (registry.faults.pending?.includes(key) && !READS.has(cmd.verb)) {
      const reply = deferCommand(ctx);
      registry.addPending({ key, clID: this.clID, cmd, svTRID });
      registry.state.save();
      return reply;
    }
    const reply = runCommand(ctx);
    if (!READS.has(cmd.verb)) registry.state.save();
    return reply;
  }

  private login(login: Element): Answer {
    if (this.clID) return { code: 2002, reason: 'this session is already logged in' };
    const clID = child(login, NS.epp, 'clID')?.text as string;
    const pw = child(login, NS.epp, 'pw')?.text as string;
    const registry = this.registry;
    if (registry.options.clients[clID] !== pw) {
      // Guessing is cut short: the third failure in one connection closes it.
      this.failedLogins++;
      return { code: this.failedLogins >= 3 ? 2501 : 2200, reason: 'unknown client or wrong password' };
    }
    const options = child(login, NS.epp, 'options');
    const version = child(options, NS.epp, 'version')?.text;
    if (version !== '1.0') return { code: 2100, reason: 'the only protocol version is 1.0', value: version };
    if (child(options, NS.epp, 'lang')?.text !== 'en')
      return { code: 2102, reason: 'the only language is en', value: child(options, NS.epp, 'lang')?.text };
    const svcs = child(login, NS.epp, 'svcs');
    const objURIs = svcs?.children.filter((c) => c.local === 'objURI').map((c) => c.text) ?? [];
    const extURIs = child(svcs, NS.epp, 'svcExtension')?.children.map((c) => c.text) ?? [];
    const unknownObject = objURIs.find((uri) => !OBJECT_URIS.includes(uri as never));
    if (unknownObject) return { code: 2307, reason: `this registry does not offer ${unknownObject}`, value: unknownObject };
    const unknownExtension = extURIs.find((uri) => !EXTENSION_URIS.includes(uri as never));
    if (unknownExtension) return { code: 2103, reason: `this registry does not offer ${unknownExtension}`, value: unknownExtension };
    const limit = registry.faults.maxSessions;
    if (limit !== undefined && registry.sessionsOf(clID) >= limit) return { code: 2502, reason: `at most ${limit} sessions per client` };
    const newPW = child(login, NS.epp, 'newPW')?.text;
    if (newPW) registry.options.clients[clID] = newPW;
    this.clID = clID;
    this.objURIs = objURIs;
    this.extURIs = extURIs;
    return { code: 1000 };
  }
}
