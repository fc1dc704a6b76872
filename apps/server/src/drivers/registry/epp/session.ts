import { randomUUID } from 'node:crypto';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { DriverLog } from '../../log.ts';
import { commandXml, type EppCommand, helloXml, loginCommand, logoutCommand } from './command.ts';
import { EppFailure } from './errors.ts';
import { frame, frameReader } from './frames.ts';
import { redactFrame } from './redact.ts';
import { type EppResponse, type Greeting, readGreeting, readResponse } from './response.ts';
import { NS } from './xml.ts';

export type EppLog = DriverLog;

export interface SessionSettings {
  host: string;
  port: number;
  cert: Buffer;
  key: Buffer;
  ca: Buffer;
  clientId: string;
  password: string;
  timeoutMs: number;
  keepAliveMs: number;
}

/** The object and extension URIs the driver speaks; login asks for those the greeting offers. */
export const SUPPORTED_OBJECTS = [NS.domain, NS.host, NS.contact];
export const SUPPORTED_EXTENSIONS = [NS.secDNS, NS.rgp];

/** What login asks for: the URIs the greeting offers that the driver speaks, nothing it does not. */
export function loginServices(greeting: Greeting) {
  return {
    objURIs: SUPPORTED_OBJECTS.filter((uri) => greeting.objURIs.includes(uri)),
    extURIs: SUPPORTED_EXTENSIONS.filter((uri) => greeting.extURIs.includes(uri)),
  };
}

/** The connection went away. `inFlight`: a command had been written and its answer never came. */
export class LostConnection extends Error {
  readonly inFlight: boolean;
  constructor(reason: string, inFlight: boolean) {
    super(`epp: connection lost (${reason})`);
    this.inFlight = inFlight;
  }
}

export interface SentResponse extends EppResponse {
  clTRID: string;
}

export interface Session {
  readonly greeting: Greeting;
  /** False once the socket closed, for whatever reason: the pool opens another. */
  readonly alive: boolean;
  send(command: EppCommand): Promise<SentResponse>;
  /** <logout> and close; never throws. */
  logout(): Promise<void>;
  /** Closes the socket at once, without a word to the registry. */
  destroy(): void;
}

/** A unique client transaction id (RFC 5730 trIDStringType: 3–64 characters). */
export const newClTRID = () => `ATL-${randomUUID()}`;

/**
 * One EPP session (RFC 5734): TLS 1.2+ with the registrar's certificate, the registry's checked
 * against the configured CA, the greeting read, login sent with the intersection of the
 * greeting's URIs and the driver's. One command at a time; a <hello> when idle for keepAliveMs.
 */
export async function openSession(settings: SessionSettings, log: EppLog): Promise<Session> {
  const socket = tls.connect({
    host: settings.host,
    port: settings.port,
    cert: settings.cert,
    key: settings.key,
    ca: settings.ca,
    minVersion: 'TLSv1.2',
    servername: isIP(settings.host) ? undefined : settings.host,
  });
  let alive = true;
  let waiting: { resolve: (xml: string) => void; reject: (error: Error) => void; written: boolean } | null = null;
  let closeReason = '';

  const fail = (reason: string) => {
    if (!alive) return;
    alive = false;
    closeReason = reason;
    clearTimeout(keepAlive);
    socket.destroy();
    const pending = waiting;
    waiting = null;
    pending?.reject(new LostConnection(reason, pending.written));
  };
  const reader = frameReader((xml) => {
    log.debug({ frame: redactFrame(xml), direction: 'in' }, 'epp frame');
    const pending = waiting;
    waiting = null;
    if (pending) pending.resolve(xml);
    else log.warn({ frame: redactFrame(xml) }, 'epp: a frame nobody asked for');
  });
  socket.on('data', (chunk: Buffer) => {
    try {
      reader(chunk);
    } catch (error) {
      fail((error as Error).message);
    }
  });
  socket.on('error', (error) => fail(error.message));
  socket.on('close', () => fail('closed by the registry'));

  /** Writes a frame (none for the greeting) and waits for the next one. */
  const exchange = (xml: string | null) =>
    new Promise<string>((resolve, reject) => {
      if (!alive) return reject(new LostConnection(closeReason, false));
      const timer = setTimeout(() => fail(`no answer in ${settings.timeoutMs} ms`), settings.timeoutMs);
      waiting = {
        resolve: (answer) => {
          clearTimeout(timer);
          resolve(answer);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
        written: false,
      };
      if (xml !== null) {
        log.debug({ frame: redactFrame(xml), direction: 'out' }, 'epp frame');
        waiting.written = true;
        socket.write(frame(xml));
      }
    });

  // One exchange at a time: a keep-alive hello and a command never interleave.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const next = turn.then(work, work);
    turn = next.catch(() => undefined);
    return next;
  };

  let keepAlive: NodeJS.Timeout | undefined;
  const armKeepAlive = () => {
    clearTimeout(keepAlive);
    keepAlive = setTimeout(() => {
      inTurn(() => exchange(helloXml()))
        .then(armKeepAlive)
        .catch((error) => log.warn({ err: error }, 'epp: hello failed'));
    }, settings.keepAliveMs);
    keepAlive.unref();
  };

  const send = (command: EppCommand) =>
    inTurn(async (): Promise<SentResponse> => {
      const clTRID = newClTRID();
      const response = readResponse(await exchange(commandXml(command, clTRID)));
      armKeepAlive();
      return { ...response, clTRID };
    });

  try {
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
      socket.once('close', () => reject(new LostConnection(closeReason || 'closed during the handshake', false)));
    });
    const greeting = readGreeting(await exchange(null));
    const { objURIs, extURIs } = loginServices(greeting);
    const login = await send(loginCommand(settings.clientId, settings.password, objURIs, extURIs));
    if (login.code !== 1000) throw new EppFailure('login', login);
    return {
      greeting,
      get alive() {
        return alive;
      },
      send,
      async logout() {
        if (!alive) return;
        try {
          await send(logoutCommand());
        } catch {
          // Already gone: nothing to say goodbye to.
        }
        fail('logged out');
      },
      destroy: () => fail('closed by the driver'),
    };
  } catch (error) {
    fail('login failed');
    throw error;
  }
}
