import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'atalaya-typo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The server's command line as `npm start` runs it once the web app is built: its Node flags and entry. */
function startCommand() {
  const script: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
  // The environment it sets (`NAME=value` before node) changes nothing this test looks at.
  const [node, ...args] = script
    .split('&&')
    .at(-1)!
    .trim()
    .split(/\s+/)
    .filter((word) => !/^[A-Z_]+=/.test(word));
  expect(node).toBe('node');
  return args;
}

it('refuses to start the server on a config file with a misspelt driver area and option, naming each key and the key meant', async () => {
  const file = path.join(dir, 'atalaya.config.json');
  const epp = { driver: 'epp', host: 'epp.registry.example', clientId: 'registrar1', password: 'secret-1' };
  writeFileSync(file, JSON.stringify({ drivers: { registy: epp }, hosting: { webRot: '/srv' } }));
  const server = spawn(process.execPath, startCommand(), {
    cwd: ROOT,
    env: { ...process.env, ATALAYA_CONFIG: file, ATALAYA_DATA_DIR: dir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '' },
  });
  let stdout = '';
  let stderr = '';
  server.stdout.on('data', (chunk) => {
    stdout += chunk;
    // Started on the simulated registry after all: stop it, the assertions below say what went wrong.
    if (stdout.includes('Atalaya is running at')) server.kill('SIGTERM');
  });
  server.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve) => server.on('exit', resolve));
  expect(stdout).not.toContain('Atalaya is running at');
  expect(code).toBe(2);
  expect(stderr).toContain('Invalid configuration:');
  expect(stderr).toContain('  drivers.registy: unknown key (did you mean drivers.registry?)');
  expect(stderr).toContain('  hosting.webRot: unknown key (did you mean hosting.webRoot?)');
}, 90_000);
