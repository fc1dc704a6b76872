import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ensureCertificates } from './certificates.ts';
import { startRegistry } from './server.ts';

/**
 * `npm run registry -- --port 7000 --cert server.pem --key server.key --ca ca.pem --clients ID:PASSWORD[,ID:PASSWORD]`
 * Prints `listening on <port>` (and `control on <port>` with --control-port) once it accepts connections.
 */
const USAGE =
  'usage: npm run registry -- --port N --cert FILE --key FILE --ca FILE --clients ID:PASSWORD[,ID:PASSWORD]\n' +
  '  [--host 127.0.0.1] [--control-port N] [--state FILE] [--ns-min 2] [--ns-max 13] [--host-model objects|attributes]\n' +
  '  [--idle-timeout SECONDS] [--max-frame BYTES]\n' +
  '  --certs-dir DIR instead of --cert/--key/--ca: throw-away certificates made (once) in DIR, client.pem/client.key for the client';

function die(message: string): never {
  console.error(`registry: ${message}\n${USAGE}`);
  process.exit(2);
}

let values: Record<string, string | undefined>;
try {
  values = parseArgs({
    options: Object.fromEntries(
      [
        'port',
        'host',
        'cert',
        'key',
        'ca',
        'certs-dir',
        'clients',
        'control-port',
        'state',
        'ns-min',
        'ns-max',
        'host-model',
        'idle-timeout',
        'max-frame',
      ].map((name) => [name, { type: 'string' as const }]),
    ),
  }).values as Record<string, string | undefined>;
} catch (error) {
  die((error as Error).message);
}

function number(name: string, fallback?: number): number | undefined {
  const value = values[name];
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value)) die(`--${name} must be a whole number, not '${value}'`);
  return Number(value);
}

const made = values['certs-dir'] ? ensureCertificates(values['certs-dir']) : undefined;
const madeFiles: Record<string, string | undefined> = { cert: made?.serverCert, key: made?.serverKey, ca: made?.ca };

function file(name: string): string {
  const path = values[name] ?? madeFiles[name];
  if (!path) die(`--${name} is required`);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    return die(`--${name} ${path}: ${(error as Error).message}`);
  }
}

const clients: Record<string, string> = {};
for (const pair of (values.clients ?? die('--clients is required')).split(',')) {
  const colon = pair.indexOf(':');
  if (colon < 1) die(`--clients takes ID:PASSWORD pairs, not '${pair}'`);
  clients[pair.slice(0, colon)] = pair.slice(colon + 1);
}
const hostModel = values['host-model'] ?? 'objects';
if (hostModel !== 'objects' && hostModel !== 'attributes') die('--host-model is objects or attributes');
const idle = number('idle-timeout');

const registry = await startRegistry({
  port: number('port', 700),
  host: values.host ?? '127.0.0.1',
  cert: file('cert'),
  key: file('key'),
  ca: file('ca'),
  clients,
  stateFile: values.state,
  controlPort: number('control-port'),
  ...(idle !== undefined ? { idleTimeoutMs: idle * 1000 } : {}),
  ...(values['max-frame'] ? { maxFrameBytes: number('max-frame') } : {}),
  policy: { nsMin: number('ns-min', 2), nsMax: number('ns-max', 13), hostModel },
});
if (made) console.log(`client certificate ${made.clientCert} and key ${made.clientKey}, CA ${made.ca}`);
console.log(`listening on ${registry.port}`);
if (registry.controlPort !== undefined) console.log(`control on ${registry.controlPort}`);
const stop = () => registry.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
