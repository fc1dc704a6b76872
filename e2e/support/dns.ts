/**
 * The browser tests' DNS: a resolver on loopback that answers what the panel's `local` DNS driver
 * serves (dns_zone.served in the run's store), plus zones a test keeps "at another DNS host" in
 * dns-elsewhere.json. The mail health card asks it as it would ask the world's.
 */

import { createSocket } from 'node:dgram';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import dnsPacket, { type Answer } from 'dns-packet';

export interface ServedRRset {
  name: string;
  type: string;
  ttl: number;
  contents: string[];
}

export const elsewhereFile = (dataDir: string) => path.join(dataDir, 'dns-elsewhere.json');

/** `"…" "…"` with \" \\ and \DDD, as the driver writes TXT contents, back to character-strings. */
function txtStrings(content: string): Buffer[] {
  return (content.match(/"(?:[^"\\]|\\.)*"/g) ?? []).map((piece) => {
    const body = piece.slice(1, -1);
    const bytes: number[] = [];
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '\\' && /^\d{3}$/.test(body.slice(i + 1, i + 4))) {
        bytes.push(Number(body.slice(i + 1, i + 4)));
        i += 3;
      } else if (body[i] === '\\') bytes.push(body.charCodeAt(++i));
      else bytes.push(...Buffer.from(body[i]!, 'utf8'));
    }
    return Buffer.from(bytes);
  });
}

const bare = (name: string) => name.replace(/\.$/, '').toLowerCase();

function answersOf(set: ServedRRset): Answer[] {
  const base = { name: bare(set.name), ttl: set.ttl, class: 'IN' as const };
  return set.contents.flatMap((content): Answer[] => {
    switch (set.type) {
      case 'TXT':
        return [{ ...base, type: 'TXT', data: txtStrings(content) }];
      case 'MX': {
        const [preference, exchange] = content.split(/\s+/);
        return [{ ...base, type: 'MX', data: { preference: Number(preference), exchange: bare(exchange ?? '') } }];
      }
      case 'A':
      case 'AAAA':
        return [{ ...base, type: set.type, data: content }];
      case 'CNAME':
      case 'NS':
        return [{ ...base, type: set.type, data: bare(content) }];
      default:
        return [];
    }
  });
}

export function startDns(dataDir: string, port: number) {
  const zones = (): { name: string; rrsets: ServedRRset[] }[] => {
    const found: { name: string; rrsets: ServedRRset[] }[] = [];
    const file = path.join(dataDir, 'atalaya.sqlite');
    if (existsSync(file)) {
      const db = new DatabaseSync(file, { readOnly: true });
      try {
        for (const row of db.prepare('SELECT name, served FROM dns_zone WHERE served IS NOT NULL').all() as {
          name: string;
          served: string;
        }[])
          found.push({ name: bare(row.name), rrsets: JSON.parse(row.served) });
      } finally {
        db.close();
      }
    }
    if (existsSync(elsewhereFile(dataDir)))
      found.push(...(JSON.parse(readFileSync(elsewhereFile(dataDir), 'utf8')) as { name: string; rrsets: ServedRRset[] }[]));
    return found;
  };
  const socket = createSocket('udp4');
  socket.on('message', (message, peer) => {
    let reply: Buffer;
    try {
      const query = dnsPacket.decode(message);
      const question = query.questions?.[0];
      const name = bare(question?.name ?? '');
      const zone = zones().find((z) => name === z.name || name.endsWith(`.${z.name}`));
      const atName = zone?.rrsets.filter((s) => bare(s.name) === name) ?? [];
      const answers = atName.filter((s) => s.type === question?.type).flatMap(answersOf);
      const rcode = !zone ? 'REFUSED' : atName.length ? 'NOERROR' : 'NXDOMAIN';
      reply = dnsPacket.encode({
        type: 'response',
        id: query.id,
        flags: (zone ? dnsPacket.AUTHORITATIVE_ANSWER : 0) | ({ NOERROR: 0, NXDOMAIN: 3, REFUSED: 5 } as const)[rcode],
        questions: query.questions,
        answers,
      });
    } catch {
      return;
    }
    socket.send(reply, peer.port, peer.address);
  });
  socket.bind(port, '127.0.0.1');
  return socket;
}
