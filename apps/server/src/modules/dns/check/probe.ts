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

function overUdp(dnsPacket: DnsPacket, target: Target, packet: Packet, timeoutMs: number): Promise<DecodedPacket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket(target.host.includes(':') ? 'udp6' : 'udp4');
    const timer = setTimeout(() => finish(new Error('timeout')), timeoutMs);
    function finish(error: Error | null, answer?: DecodedPacket) {
      clearTimeout(timer);
      socket.close();
      if (error) reject(error);
      else resolve(answer!);
    }
    socket.on('error', (e) => finish(e));
    socket.on('message', (message) => {
      const answer = dnsPacket.decode(message);
      if (answer.id === packet.id) finish(null, answer);
    });
    socket.send(dnsPacket.encode(packet), target.port, target.host);
  });
}

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
      if (buffer.length >= 2 && buffer.length >= 2 + buffer.readUInt16BE(0))
        finish(null, dnsPacket.decode(buffer.subarray(2, 2 + buffer.readUInt16BE(0))));
    });
  });
}

/** One question to one server over UDP, again over TCP when the answer was truncated. */
export async function ask(target: Target, name: string, type: string, { dnssec = false, timeoutMs = 2000 } = {}): Promise<Reply> {
  const { default: dnsPacket } = await import('dns-packet');
  const packet = query(dnsPacket, name, type, dnssec);
  const answer = await overUdp(dnsPacket, target, packet, timeoutMs);
  return toReply(answer.flag_tc ? await overTcp(dnsPacket, target, packet, timeoutMs) : answer);
}
