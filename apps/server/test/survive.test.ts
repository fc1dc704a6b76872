import { spawn } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './nodes/processes.ts';

const SERVER = path.resolve(import.meta.dirname, 'survive-server.ts');

/** The real server process (survive-server.ts: `npm start`'s entry beside a socket whose listener throws). */
describe('a server process and an error nobody caught', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'atalaya-survive-'));
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', SERVER], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', ATALAYA_DATA_DIR: dataDir, ATALAYA_LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  let httpPort = 0;
  let udpPort = 0;
  const udp = createSocket('udp4');
  const send = (text: string) => new Promise((resolve) => udp.send(text, udpPort, '127.0.0.1', resolve));
  const uncaught = () => output.split('\n').filter((line) => line.includes('uncaught error: logged, the process goes on'));
  const answers = async () => (await fetch(`http://127.0.0.1:${httpPort}/p247/captcha/`)).status;

  beforeAll(async () => {
    await eventually(async () => /Atalaya is running at/.test(output) && /throwing socket on \d+/.test(output), 40_000, 'the server');
    httpPort = Number(/Atalaya is running at http:\/\/localhost:(\d+)\//.exec(output)![1]);
    udpPort = Number(/throwing socket on (\d+)/.exec(output)![1]);
  }, 60_000);
  afterAll(() => {
    udp.close();
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('logs an error thrown in a socket listener and goes on serving, however often it comes', async () => {
    expect(await answers()).toBe(200);
    for (let i = 1; i <= 3; i++) {
      await send('nonsense');
      await eventually(async () => uncaught().length >= i, 10_000, `uncaught error ${i} logged`);
      expect(await answers()).toBe(200);
    }
    const line = JSON.parse(uncaught()[0]!);
    expect(line).toMatchObject({ level: 50, origin: 'uncaughtException', err: { message: 'a reply nobody expected' } });
    expect(child.exitCode).toBeNull();
  });

  it('logs a rejected promise nobody waited for and goes on serving', async () => {
    const before = uncaught().length;
    await send('reject');
    await eventually(async () => uncaught().length > before, 10_000, 'the rejection logged');
    expect(JSON.parse(uncaught().at(-1)!)).toMatchObject({ origin: 'unhandledRejection', err: { message: 'a promise nobody waited for' } });
    expect(await answers()).toBe(200);
    expect(child.exitCode).toBeNull();
  });
});
