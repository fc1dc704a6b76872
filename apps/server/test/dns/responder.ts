import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket } from 'dns-packet';

/**
 * How the responder answers a question:
 * - `good`: an authoritative answer (the SOA with `serial`, no DNSKEY);
 * - `garbage`: a datagram too short for an id, then our id followed by bytes that do not decode;
 * - `other-port`: a good answer, but sent from another port than the one asked;
 * - `wrong-id-first`: a good answer with another id and serial 1, then the good answer;
 * - `tcp-garbage` / `tcp-good`: a truncated UDP answer, then over TCP bytes that do not decode / the good answer;
 * - `dnskey-garbage`: a good SOA, and our id followed by bytes that do not decode for any other question.
 */
export type Mode = 'good' | 'garbage' | 'other-port' | 'wrong-id-first' | 'tcp-garbage' | 'tcp-good' | 'dnskey-garbage';

export interface Responder {
  port: number;
  mode: Mode;
  /** Questions seen, over UDP and TCP, as "<udp|tcp> <type> <name>". */
  questions: string[];
  close(): Promise<void>;
}

/** Our id, then a header that promises an answer and nothing after it: dns-packet throws decoding it. */
const undecodable = (id: number) => Buffer.concat([Buffer.from([id >> 8, id & 0xff]), Buffer.from('8400000100010000000000ff', 'hex')]);

const answerTo = (query: DecodedPacket, serial: number, extra: { id?: number; truncated?: boolean } = {}) => {
  const question = query.questions![0]!;
  const answers: Answer[] =
    question.type === 'SOA' && !extra.truncated
      ? [
          {
            type: 'SOA',
            name: question.name,
            ttl: 60,
            data: {
              mname: 'ns.example.net',
              rname: 'hostmaster.example.net',
              serial,
              refresh: 3600,
              retry: 600,
              expire: 86400,
              minimum: 60,
            },
          },
        ]
      : [];
  return dnsPacket.encode({
    type: 'response',
    id: extra.id ?? query.id,
    flags: dnsPacket.AUTHORITATIVE_ANSWER | (extra.truncated ? dnsPacket.TRUNCATED_RESPONSE : 0),
    questions: query.questions,
    answers,
  });
};

/**
 * A name server of a customer's, on loopback: UDP and TCP on one port, answering as `mode` says
 * (switched between tests). What a hostile or broken server sends, sent for real over the sockets.
 */
export async function startResponder(serial: number, mode: Mode = 'good'): Promise<Responder> {
  const udp: Socket = createSocket('udp4');
  const elsewhere: Socket = createSocket('udp4');
  const questions: string[] = [];
  const responder: Responder = { port: 0, mode, questions, close };

  udp.on('message', (message, peer) => {
    const query = dnsPacket.decode(message);
    const question = query.questions![0]!;
    questions.push(`udp ${question.type} ${question.name}`);
    const reply = (data: Buffer, from = udp) => from.send(data, peer.port, peer.address);
    switch (responder.mode) {
      case 'good':
        return reply(answerTo(query, serial));
      case 'garbage':
        reply(Buffer.from([0x42]));
        return reply(undecodable(query.id!));
      case 'other-port':
        return reply(answerTo(query, serial), elsewhere);
      case 'wrong-id-first':
        reply(answerTo(query, 1, { id: (query.id! + 1) & 0xffff }));
        return reply(answerTo(query, serial));
      case 'tcp-garbage':
      case 'tcp-good':
        return reply(answerTo(query, serial, { truncated: true }));
      case 'dnskey-garbage':
        return reply(question.type === 'SOA' ? answerTo(query, serial) : undecodable(query.id!));
    }
  });

  const tcp: Server = createServer((socket) => {
    let buffer = Buffer.alloc(0);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length < 2 || buffer.length < 2 + buffer.readUInt16BE(0)) return;
      const query = dnsPacket.decode(buffer.subarray(2, 2 + buffer.readUInt16BE(0)));
      questions.push(`tcp ${query.questions![0]!.type} ${query.questions![0]!.name}`);
      const answer = responder.mode === 'tcp-garbage' ? undecodable(query.id!) : answerTo(query, serial);
      const length = Buffer.alloc(2);
      length.writeUInt16BE(answer.length);
      socket.end(Buffer.concat([length, answer]));
    });
  });

  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => elsewhere.bind(0, '127.0.0.1', resolve));
  responder.port = udp.address().port;
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(responder.port, '127.0.0.1', resolve);
  });

  async function close() {
    udp.close();
    elsewhere.close();
    await new Promise((resolve) => tcp.close(resolve));
  }
  return responder;
}
