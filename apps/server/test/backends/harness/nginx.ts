import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type NginxBackend, nginxBackend } from '../../../src/drivers/real/nginx/nginx.ts';
import { freePort, removeDir, startDaemon, stopDaemon, tempDir, waitForPort } from './common.ts';

export const NGINX = '/usr/sbin/nginx';

export interface NginxHarness {
  dir: string;
  httpPort: number;
  httpsPort: number;
  backend: NginxBackend;
  /** Options the backend was built with (for a second backend over the same files). */
  options: Record<string, unknown>;
  stop(): Promise<void>;
}

/**
 * nginx in the foreground on `dir`/nginx.conf, so the suite owns the process and ends it: pid, lock,
 * log and temp paths in `dir`, then the given lines inside `http {}`; answered once `port` listens.
 */
export async function runNginx(
  dir: string,
  {
    connections,
    http,
    port,
    host = '127.0.0.1',
    wrap = [],
  }: { connections: number; http: string[]; port: number; host?: string; wrap?: string[] },
) {
  const conf = path.join(dir, 'nginx.conf');
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, `${name}-temp`)};`;
  await writeFile(
    conf,
    [
      process.getuid?.() === 0 ? 'user root root;' : '',
      'daemon off;',
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `lock_file ${path.join(dir, 'nginx.lock')};`,
      `error_log ${path.join(dir, 'error.log')} warn;`,
      `events { worker_connections ${connections}; }`,
      'http {',
      '  access_log off;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      ...http,
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-e', path.join(dir, 'startup.log'), '-c', conf, '-p', `${dir}/`];
  // `wrap` runs it inside another network (`ip netns exec <name>`), where it listens on `host`.
  const daemon = wrap.length ? startDaemon(wrap[0]!, [...wrap.slice(1), NGINX, ...args]) : startDaemon(NGINX, args);
  try {
    await waitForPort(port, 10_000, host);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`nginx did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return { conf, stop: () => stopDaemon(daemon.child, 'SIGQUIT') };
}

/** An nginx of its own for the sites driver, listening on two free loopback ports. */
export async function startNginx(): Promise<NginxHarness> {
  const dir = await tempDir('nginx');
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
  const nginx = await runNginx(dir, {
    connections: 64,
    port: httpPort,
    http: [
      '  types { text/html html; text/plain txt; }',
      '  default_type application/octet-stream;',
      // The catch-all answers 404 to hosts the panel does not serve.
      `  server { listen 127.0.0.1:${httpPort} default_server; return 404; }`,
      `  include ${path.join(dir, 'atalaya', 'sites')}/*.conf;`,
    ],
  });
  const options = {
    nginx: NGINX,
    confFile: nginx.conf,
    prefix: `${dir}/`,
    baseDir: path.join(dir, 'atalaya'),
    logDir: path.join(dir, 'logs'),
    webRoot: path.join(dir, 'www', '{reference}'),
    listenAddress: '127.0.0.1',
    httpPort,
    httpsPort,
    phpSocket: path.join(dir, 'php{version}-fpm.sock'),
    timeoutMs: 15_000,
  };
  return {
    dir,
    httpPort,
    httpsPort,
    options,
    backend: nginxBackend(options),
    async stop() {
      await nginx.stop();
      await removeDir(dir);
    },
  };
}
