import { createSocket } from 'node:dgram';
import { lookup } from 'node:dns/promises';
import { connect } from 'node:net';
import type { Answer, DecodedPacket, Packet } from 'dns-packet';

/** dns-packet loads with the first check: a panel nobody checks from never holds it in memory. */
type DnsPacket = typeof import('dns-packet');

/** Where a name server listens. */
export interface Target {
  host: string;
  port: number;
}

/** A name server's address: from the configured map ("address" or "address:port"), else looked up, port 53. */
export async function targetOf(server: string, addresses: Record<string, string>): Promise<Target | null> {
  const configured = addresses[server] ?? addresses[server.replace(/\.$/, '')] ?? addresses[`${server.replace(/\.$/, '')}.`];
  if (configured) {
    // "192.0.2.53", "192.0.2.53:5300", "2001:db8::53" or "[2001:db8::53]:5300".
    const match = /^\[(.+)\]:(\d+)$/.exec(configured) ?? /^([^:]+):(\d+)$/.exec(configured);
    return match ? { host: match[1], port: Number(match[2]) } : { host: configured, port: 53 };
  }
  try {
    return { host: (await lookup(server.replace(/\.$/, ''))).address, port: 53 };
  } catch {
    return null;
  }
}

export interface Reply {
  authoritative: boolean;
  rcode: string;
  answers: Answer[];
}

const query = (dnsPacket: DnsPacket, name: string, type: string, dnssec: boolean): Packet => ({
  type: 'query',
  id: Math.floor(Math.random() * 65535),
  questions: [{ type: type as 'SOA', name }],
  additionals: [
    {
      type: 'OPT',
      name: '.',
      udpPayloadSize: 4096,
      extendedRcode: 0,
      ednsVersion: 0,
      flags: dnssec ? dnsPacket.DNSSEC_OK : 0,
      flag_do: dnssec,
      options: [],
    },
  ],
});

const toReply = (packet: DecodedPacket): Reply => ({
  authoritative: Boolean(packet.flag_aa),
  rcode: (packet as DecodedPacket & { rcode?: string }).rcode ?? 'NOERROR',
  answers: packet.answers ?? [],
});

/**
 * What a name server sent back is not a DNS answer (it would not decode, or it answers another
 * question): the check reports it as a finding. What outside servers send is never trusted to
 * decode, so every decode happens here, inside a try, and never throws out of a socket listener.
 */
export class NotDns extends Error {
  constructor() {
    super('the server answered something that is not DNS');
  }
}

const decoded = (dnsPacket: DnsPacket, message: Buffer): DecodedPacket | null => {
  try {
    return dnsPacket.decode(message);
  } catch {
    return null;
  }
};

/** The 16-bit id a message starts with, or null when it is too short to carry one. */
const idOf = (message: Buffer) => (message.length >= 2 ? message.readUInt16BE(0) : null);

function overUdp(dnsPacket: DnsPacket, target: Target, packet: Packet, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(target.host.includes(':') ? 'udp6' : 'udp4');
    // Set when the server sent something that is not our answer: a time-out then says "not DNS", not "silent".
    let garbled = false;
    const timer = setTimeout(() => finish(garbled ? new NotDns() : new Error('timeout')), timeoutMs);
    function finish(error: Error | null, answer?: DecodedPacket) {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(answer!);
    }
    socket.on('error', (e) => finish(e));
    // A connected socket: the kernel drops every datagram that does not come from the server's
    // address and port, so nobody else on the network can answer in its place.
    socket.on('message', (message) => {
      // Another id is an older question's answer, or nonsense: keep waiting for ours until the time-out.
      const answer = idOf(message) === packet.id ? decoded(dnsPacket, message) : null;
      if (answer?.type === 'response') finish(null, answer);
      else garbled = true;
    });
    socket.connect(target.port, target.host, () => socket.send(dnsPacket.encode(packet)));
  });
}

/** Over TCP the answer comes after its two-byte length; nothing past that length is read. */
function overTcp(dnsPacket: DnsPacket, target: Target, packet: Packet, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const socket = connect(target.port, target.host);
    let buffer = Buffer.alloc(0);
    const timer = setTimeout(() => finish(new Error('timeout')), timeoutMs);
    function finish(error: Error | null, answer?: DecodedPacket) {
      clearTimeout(timer);
      socket.destroy();
      if (error) reject(error);
      else resolve(answer!);
    }
    socket.on('error', (e) => finish(e));
    socket.on('connect', () => socket.write(dnsPacket.streamEncode(packet)));
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 2 || buffer.length < 2 + buffer.readUInt16BE(0)) return;
      // The connection is ours alone: an answer that does not decode or carries another id is the server's fault.
      const message = buffer.subarray(2, 2 + buffer.readUInt16BE(0));
      const answer = idOf(message) === packet.id ? decoded(dnsPacket, message) : null;
      if (answer?.type === 'response') finish(null, answer);
      else finish(new NotDns());
    });
    socket.on('end', () => finish(buffer.length ? new NotDns() : new Error('closed')));
  });
}

/** One question to one server over UDP, again over TCP when the answer was truncated. */
export async function ask(target: Target, name: string, type: string, { dnssec = false, timeoutMs = 2000 } = {}): Promise<Reply> {
  const { default: dnsPacket } = await import('dns-packet');
  const packet = query(dnsPacket, name, type, dnssec);
  const answer = await overUdp(dnsPacket, target, packet, timeoutMs);
  return toReply(answer.flag_tc ? await overTcp(dnsPacket, target, packet, timeoutMs) : answer);
}
