import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { code, createContact, EppTestClient, testCertificates } from './harness.ts';

const certs = testCertificates();
const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-registry-cli-'));
const file = (name: string, text: string) => {
  writeFileSync(path.join(dir, name), text);
  return path.join(dir, name);
};
const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const args = [
  '--disable-warning=ExperimentalWarning',
  main,
  '--port',
  '0',
  '--cert',
  file('server.pem', certs.server.cert),
  '--key',
  file('server.key', certs.server.key),
  '--ca',
  file('ca.pem', certs.ca),
  '--clients',
  'cli-1:secret-c1,cli-2:secret-c2',
];
let child: ChildProcess | undefined;
afterEach(() => child?.kill());

/** Starts the registry as `npm run registry` does and waits for its `listening on` line. */
function start(extra: string[], base = args): Promise<{ port: number; output: string }> {
  child = spawn(process.execPath, [...base, ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on (\d+)/.exec(output)?.[1];
      if (port) resolve({ port: Number(port), output });
    };
    child?.stdout?.on('data', read);
    child?.stderr?.on('data', read);
    child?.on('exit', () => reject(new Error(output)));
  });
}

describe('npm run registry', () => {
  it('prints the port it listens on and takes the clients given, keeping objects in the state file', async () => {
    const state = path.join(dir, 'state.json');
    const { port } = await start(['--state', state]);
    const client = await EppTestClient.open(port, certs.client, certs.ca);
    expect(code(await client.login('cli-2', 'secret-c2'))).toBe(1000);
    expect(code(await client.command(createContact('kept-1')))).toBe(1000);
    client.close();
    expect(JSON.parse(readFileSync(state, 'utf8')).contacts['kept-1'].clID).toBe('cli-2');
    child?.kill();
    const again = await start(['--state', state]);
    const second = await EppTestClient.open(again.port, certs.client, certs.ca);
    await second.login('cli-2', 'secret-c2');
    expect(code(await second.command(createContact('kept-1')))).toBe(2302);
    second.close();
  });

  it('makes throw-away certificates in --certs-dir that a client and the registry then use', async () => {
    const certsDir = path.join(dir, 'made');
    const bare = [process.execPath, '--disable-warning=ExperimentalWarning', main, '--port', '0', '--clients', 'cli-1:secret-c1'];
    const { port, output } = await start(['--certs-dir', certsDir], bare.slice(1));
    expect(output).toContain(`client certificate ${path.join(certsDir, 'client.pem')}`);
    const read = (name: string) => readFileSync(path.join(certsDir, name), 'utf8');
    const client = await EppTestClient.open(port, { cert: read('client.pem'), key: read('client.key'), chain: '' }, read('ca.pem'));
    expect(code(await client.login('cli-1', 'secret-c1'))).toBe(1000);
    client.close();
    // A client certificate from another authority is still refused.
    await expect(EppTestClient.open(port, certs.client, read('ca.pem'))).rejects.toThrow();
  });

  it('stops with the usage when an option is wrong', async () => {
    await expect(start(['--ns-max', 'many'])).rejects.toThrow("--ns-max must be a whole number, not 'many'");
  });
});
