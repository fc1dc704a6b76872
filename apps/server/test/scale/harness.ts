import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { freePort, tempDir } from '../backends/harness/common.ts';
import { NGINX, runNginx } from '../backends/harness/nginx.ts';
import { freshDatabase } from '../pg.ts';

export { freshDatabase, NGINX };

/** The server with the outbox probe's job kind (probe-server.ts). */
const SERVER = path.resolve(import.meta.dirname, 'probe-server.ts');
const DEPLOY = path.resolve(import.meta.dirname, '../../../../docs/deploy.md');

/** The lines of docs/deploy.md's nginx example between `# <name>` and `# end <name>`. */
export function deployBlock(name: string): string {
  const text = readFileSync(DEPLOY, 'utf8');
  const match = new RegExp(`^\\s*# ${name}\\n([\\s\\S]*?)^\\s*# end ${name}$`, 'm').exec(text);
  if (!match) throw new Error(`docs/deploy.md has no "# ${name}" … "# end ${name}" block`);
  return match[1];
}

/**
 * nginx in front of the given server ports, configured with docs/deploy.md's own upstream, map and
 * proxy directives; only the TLS listener becomes a plain loopback one (no certificate here).
 */
export async function startBalancer(serverPorts: number[], port: number) {
  const dir = await tempDir('balancer');
  const balancer = deployBlock('balancer').replace(
    /^(\s*)server 127\.0\.0\.1:8081 (.*)\n\s*server 127\.0\.0\.1:8082 .*\n/m,
    (_all, indent: string, rest: string) => serverPorts.map((p) => `${indent}server 127.0.0.1:${p} ${rest}\n`).join(''),
  );
  const nginx = await runNginx(dir, {
    connections: 256,
    port,
    http: [balancer, `  server {\n    listen 127.0.0.1:${port};\n${deployBlock('proxy')}  }`],
  });
  return { port, ...nginx };
}

export interface ServerProcess {
  port: number;
  child: ChildProcess;
  /** How many requests this process logged whose URL starts with `prefix`. */
  served(prefix: string): number;
  output(): string;
}

/** One real server process (what `npm start` runs, plus the probe's job kind), on its own port and data dir. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--disable-warning=ExperimentalWarning', SERVER], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', ATALAYA_DATA_DIR: await tempDir('server') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output.slice(-3000)}`)), 40_000);
    const check = () => {
      if (output.includes('Atalaya is running at')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    child.once('exit', (code) => reject(new Error(`server exited with ${code}:\n${output.slice(-3000)}`)));
  });
  return {
    port,
    child,
    output: () => output,
    served: (prefix) =>
      output
        .split('\n')
        .filter((line) => line.includes('"request completed"'))
        .filter((line) => (JSON.parse(line) as { url?: string }).url?.startsWith(prefix)).length,
  };
}

export const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'x-dd-request': '1' };

/** A solved ALTCHA payload from GET /p247/captcha/ at `base`, as the widget sends it. */
export async function solvedCaptcha(base: string) {
  const challenge = (await (await fetch(`${base}/p247/captcha/`)).json()).data as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

/** POST /p247/user/login/ at `base`; answers the status and the session cookie, if one was set. */
export async function signIn(base: string, domainName: string, username: string, password: string) {
  const recaptcha_response = await solvedCaptcha(base);
  const res = await fetch(`${base}/p247/user/login/`, {
    method: 'POST',
    headers: FORM,
    body: new URLSearchParams({ domainName, username, password, recaptcha_response }).toString(),
  });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('atalaya_sid='));
  return { status: res.status, cookie: cookie?.split(';')[0] };
}
