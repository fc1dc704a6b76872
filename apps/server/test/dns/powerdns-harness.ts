import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { skipReason } from '../skip.ts';

const run = promisify(execFile);
export const PDNS_BINARY = '/usr/sbin/pdns_server';
const SCHEMA = ['/usr/share/pdns-backend-sqlite3/schema/schema.sqlite3.sql', '/usr/share/doc/pdns-backend-sqlite3/schema.sqlite3.sql'].find(
  existsSync,
);
/** Why the PowerDNS suites skip, or null when they can run. */
export const PDNS_MISSING = skipReason(
  !existsSync(PDNS_BINARY)
    ? `${PDNS_BINARY} is missing (Debian pdns-server + pdns-backend-sqlite3): PowerDNS tests skipped`
    : !SCHEMA
      ? 'the pdns-backend-sqlite3 schema is missing: PowerDNS tests skipped'
      : null,
);

/** A free port on loopback for both TCP and UDP (DNS listens on both). */
async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
      server.on('error', reject);
    });
    const udpFree = await new Promise<boolean>((resolve) => {
      const socket = createSocket('udp4');
      socket.once('error', () => resolve(false));
      socket.bind(port, '127.0.0.1', () => socket.close(() => resolve(true)));
    });
    if (udpFree) return port;
  }
}

export interface PowerDns {
  dnsPort: number;
  apiUrl: string;
  apiKey: string;
  /** The driver options for config.drivers.dns. */
  driverConfig: Record<string, unknown>;
  kill(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  log(): string;
}

/**
 * PowerDNS Authoritative on loopback with its own config dir and SQLite database, API key,
 * webserver and DNS on random ports; no guardian, no daemon, no caches (an edit is served at once).
 */
export async function startPowerDns(): Promise<PowerDns> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-pdns-'));
  const db = new DatabaseSync(path.join(dir, 'pdns.sqlite3'));
  db.exec(readFileSync(SCHEMA!, 'utf8'));
  db.close();
  const dnsPort = await freePort();
  const apiPort = await freePort();
  const apiKey = `k${Math.random().toString(36).slice(2)}`;
  const conf = [
    'launch=gsqlite3',
    `gsqlite3-database=${path.join(dir, 'pdns.sqlite3')}`,
    // Keys and signing (the DNSSEC tests); the other suites serve unsigned zones as before.
    'gsqlite3-dnssec=yes',
    'local-address=127.0.0.1',
    `local-port=${dnsPort}`,
    'api=yes',
    `api-key=${apiKey}`,
    'webserver=yes',
    'webserver-address=127.0.0.1',
    `webserver-port=${apiPort}`,
    'webserver-allow-from=127.0.0.1',
    'guardian=no',
    'daemon=no',
    `socket-dir=${dir}`,
    'disable-syslog=yes',
    'security-poll-suffix=',
    'cache-ttl=0',
    'negquery-cache-ttl=0',
    'query-cache-ttl=0',
    'dnssec-key-cache-ttl=0',
    'zone-cache-refresh-interval=0',
    'distributor-threads=1',
    'receiver-threads=1',
    'loglevel=4',
  ];
  writeFileSync(path.join(dir, 'pdns.conf'), `${conf.join('\n')}\n`);
  const apiUrl = `http://127.0.0.1:${apiPort}`;
  let child: ChildProcess | null = null;
  let output = '';

  async function start() {
    child = spawn(PDNS_BINARY, [`--config-dir=${dir}`], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const deadline = Date.now() + 15000;
    while (Date.now() < deadline) {
      try {
        const res = await fetch(`${apiUrl}/api/v1/servers/localhost`, { headers: { 'X-API-Key': apiKey } });
        if (res.ok) return;
      } catch {}
      if (child.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`PowerDNS did not start:\n${output.slice(-2000)}`);
  }

  async function kill() {
    const proc = child;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
    child = null;
  }

  await start();
  return {
    dnsPort,
    apiUrl,
    apiKey,
    driverConfig: { driver: 'powerdns', url: apiUrl, apiKey, serverId: 'localhost', timeoutMs: 2000 },
    kill,
    start,
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
    log: () => output,
  };
}

export interface Answer {
  name: string;
  ttl: number;
  type: string;
  rdata: string;
}

/** What PowerDNS serves for a name and type (answer, or the referral for a delegation), via dig. */
export async function dig(port: number, name: string, type: string): Promise<Answer[]> {
  const { stdout } = await run('dig', [
    '@127.0.0.1',
    '-p',
    String(port),
    '+norec',
    '+time=2',
    '+tries=2',
    '+noall',
    '+answer',
    '+authority',
    name,
    type,
  ]);
  return stdout
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith(';'))
    .map((line) => {
      const [owner, ttl, , rtype] = line.split(/\s+/);
      return { name: owner, ttl: Number(ttl), type: rtype, rdata: line.replace(/^(\S+\s+){4}/, '') };
    })
    .filter((a) => a.name.toLowerCase() === `${name.replace(/\.$/, '')}.`.toLowerCase() && a.type === type);
}

/** The bytes of dig's TXT presentation ("…" "…" with \" \\ and \DDD), as UTF-8 text. */
export function txtText(rdata: string): string {
  const bytes: number[] = [];
  for (const piece of rdata.match(/"(?:[^"\\]|\\.)*"/g) ?? []) {
    const body = piece.slice(1, -1);
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '\\' && /^\d{3}$/.test(body.slice(i + 1, i + 4))) {
        bytes.push(Number(body.slice(i + 1, i + 4)));
        i += 3;
      } else if (body[i] === '\\') {
        bytes.push(body.charCodeAt(++i));
      } else {
        bytes.push(...Buffer.from(body[i], 'utf8'));
      }
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** An RFC 3597 `\# len hex` name (PowerDNS ALIAS as served), back to presentation form. */
export function genericName(rdata: string): string {
  const hex = rdata.replace(/^\\#\s+\d+\s+/, '').replace(/\s+/g, '');
  const bytes = Buffer.from(hex, 'hex');
  const labels: string[] = [];
  for (let i = 0; i < bytes.length && bytes[i] !== 0; i += bytes[i] + 1)
    labels.push(bytes.subarray(i + 1, i + 1 + bytes[i]).toString('ascii'));
  return `${labels.join('.')}.`;
}

/** named-checkzone's verdict on a zone text: exit code and output. */
export async function checkZone(zone: string, text: string): Promise<{ ok: boolean; output: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-zone-'));
  const file = path.join(dir, 'zone.db');
  writeFileSync(file, text);
  try {
    const { stdout, stderr } = await run('named-checkzone', [zone, file]);
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
