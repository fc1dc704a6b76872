import { connect, type TLSSocket } from 'node:tls';
import { leafCertificate, type Pem, selfSignedCertificate } from '../../server/test/sites/certs.ts';
import { type RegistryOptions, startRegistry, type TestRegistry } from '../src/server.ts';

/** Certificates for a registry test: the server's (for localhost), a client's signed by the same CA, and a stranger's. */
export function testCertificates() {
  const server = leafCertificate(['localhost']);
  const client = leafCertificate(['registrar-a']);
  const stranger = selfSignedCertificate('/CN=registrar-a');
  return { server, client, stranger, ca: server.chain };
}
export type Certificates = ReturnType<typeof testCertificates>;

export const PASSWORD = 'secret-a1';
export const OTHER_PASSWORD = 'secret-b2';

export function registryFor(certs: Certificates, options: Partial<RegistryOptions> = {}): Promise<TestRegistry> {
  return startRegistry({
    cert: certs.server.cert,
    key: certs.server.key,
    ca: certs.ca,
    clients: { 'registrar-a': PASSWORD, 'registrar-b': OTHER_PASSWORD },
    controlPort: 0,
    ...options,
  });
}

/**
 * A minimal EPP client for the tests: TLS with a client certificate, length-prefixed frames, and the
 * frames sent as test-written XML (the registry is what is under test, not this).
 */
export class EppTestClient {
  greeting = '';
  private buffer = Buffer.alloc(0);
  private frames: string[] = [];
  private waiters: ((frame: string | null) => void)[] = [];
  private ended = false;
  private counter = 0;
  readonly socket: TLSSocket;

  private constructor(socket: TLSSocket) {
    this.socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      while (this.buffer.length >= 4 && this.buffer.length >= this.buffer.readUInt32BE(0)) {
        const length = this.buffer.readUInt32BE(0);
        this.push(this.buffer.subarray(4, length).toString('utf8'));
        this.buffer = this.buffer.subarray(length);
      }
    });
    socket.on('close', () => {
      this.ended = true;
      for (const waiter of this.waiters.splice(0)) waiter(null);
    });
    socket.on('error', () => {});
  }

  private push(frame: string) {
    const waiter = this.waiters.shift();
    if (waiter) waiter(frame);
    else this.frames.push(frame);
  }

  static async open(port: number, pem: Pem | null, ca: string): Promise<EppTestClient> {
    const socket = connect({ port, host: '127.0.0.1', servername: 'localhost', ca, ...(pem ? { cert: pem.cert, key: pem.key } : {}) });
    await new Promise<void>((resolve, reject) => {
      socket.once('secureConnect', resolve);
      socket.once('error', reject);
    });
    const client = new EppTestClient(socket);
    const greeting = await client.next();
    if (!greeting) throw new Error('the connection closed before the greeting');
    client.greeting = greeting;
    return client;
  }

  /** The next frame, or null once the server closed the connection. */
  next(): Promise<string | null> {
    const frame = this.frames.shift();
    if (frame !== undefined) return Promise.resolve(frame);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  sendRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  async send(xml: string): Promise<string | null> {
    const body = Buffer.from(xml, 'utf8');
    const header = Buffer.alloc(4);
    header.writeUInt32BE(body.length + 4);
    this.socket.write(Buffer.concat([header, body]));
    return this.next();
  }

  /** Sends `<command>` with this content and a fresh clTRID; `extension` goes in `<extension>`. */
  command(content: string, extension = ''): Promise<string | null> {
    const ext = extension ? `<extension>${extension}</extension>` : '';
    return this.send(`${EPP_OPEN}<command>${content}${ext}<clTRID>TEST-${++this.counter}</clTRID></command></epp>`);
  }

  async login(clID = 'registrar-a', pw = PASSWORD): Promise<string | null> {
    return this.command(
      `<login><clID>${clID}</clID><pw>${pw}</pw><options><version>1.0</version><lang>en</lang></options><svcs>` +
        `<objURI>${NS.domain}</objURI><objURI>${NS.host}</objURI><objURI>${NS.contact}</objURI>` +
        `<svcExtension><extURI>${NS.secDNS}</extURI><extURI>${NS.rgp}</extURI></svcExtension></svcs></login>`,
    );
  }

  close(): void {
    this.socket.destroy();
  }

  get closed(): boolean {
    return this.ended;
  }
}

export const NS = {
  epp: 'urn:ietf:params:xml:ns:epp-1.0',
  domain: 'urn:ietf:params:xml:ns:domain-1.0',
  host: 'urn:ietf:params:xml:ns:host-1.0',
  contact: 'urn:ietf:params:xml:ns:contact-1.0',
  secDNS: 'urn:ietf:params:xml:ns:secDNS-1.1',
  rgp: 'urn:ietf:params:xml:ns:rgp-1.0',
};
export const EPP_OPEN = `<?xml version="1.0" encoding="UTF-8"?><epp xmlns="${NS.epp}">`;

/** The result code of a response frame. */
export function code(frame: string | null): number {
  const match = /<result code="(\d{4})"/.exec(frame ?? '');
  return match ? Number(match[1]) : 0;
}

/** The `<reason>` a refusal gives. */
export function reason(frame: string | null): string {
  const text = /<reason>([^<]*)<\/reason>/.exec(frame ?? '')?.[1] ?? '';
  const entities: Record<string, string> = { lt: '<', gt: '>', apos: "'", quot: '"', amp: '&' };
  return text.replace(/&(lt|gt|apos|quot|amp);/g, (_, name: string) => entities[name]);
}

// Object commands as a registrar writes them (RFC 5731–5733 examples, trimmed).
export const D = `xmlns:domain="${NS.domain}"`;
export const H = `xmlns:host="${NS.host}"`;
export const C = `xmlns:contact="${NS.contact}"`;

export const createContact = (id: string, extra = '') =>
  `<create><contact:create ${C}><contact:id>${id}</contact:id><contact:postalInfo type="loc"><contact:name>Ana Pérez</contact:name>` +
  `<contact:addr><contact:street>Calle Mayor 1</contact:street><contact:city>Madrid</contact:city><contact:pc>28013</contact:pc><contact:cc>ES</contact:cc></contact:addr>` +
  `</contact:postalInfo><contact:voice>+34.912345678</contact:voice><contact:email>ana@example.test</contact:email>` +
  `<contact:authInfo><contact:pw>2fooBAR</contact:pw></contact:authInfo>${extra}</contact:create></create>`;

export const createHost = (name: string, addrs: string[] = []) =>
  `<create><host:create ${H}><host:name>${name}</host:name>${addrs
    .map((a) => `<host:addr ip="${a.includes(':') ? 'v6' : 'v4'}">${a}</host:addr>`)
    .join('')}</host:create></create>`;

export const createDomain = (name: string, ns: string[] = [], registrant = 'reg-1', extra = '') =>
  `<create><domain:create ${D}><domain:name>${name}</domain:name><domain:period unit="y">1</domain:period>` +
  (ns.length ? `<domain:ns>${ns.map((n) => `<domain:hostObj>${n}</domain:hostObj>`).join('')}</domain:ns>` : '') +
  `<domain:registrant>${registrant}</domain:registrant><domain:contact type="admin">${registrant}</domain:contact>` +
  `<domain:authInfo><domain:pw>2fooBAR</domain:pw></domain:authInfo>${extra}</domain:create></create>`;

export const infoDomain = (name: string, auth = '') =>
  `<info><domain:info ${D}><domain:name>${name}</domain:name>${auth ? `<domain:authInfo><domain:pw>${auth}</domain:pw></domain:authInfo>` : ''}</domain:info></info>`;

export const updateDomain = (name: string, inner: string) =>
  `<update><domain:update ${D}><domain:name>${name}</domain:name>${inner}</domain:update></update>`;

/** A logged-in client with a registrant `reg-1` and two external name servers created. */
export async function seeded(registry: TestRegistry, certs: Certificates): Promise<EppTestClient> {
  const client = await EppTestClient.open(registry.port, certs.client, certs.ca);
  await client.login();
  const made = await client.command(createContact('reg-1'));
  if (code(made) !== 1000) throw new Error(`seeding failed: ${made}`);
  await client.command(createHost('ns1.dns.example'));
  await client.command(createHost('ns2.dns.example'));
  return client;
}
