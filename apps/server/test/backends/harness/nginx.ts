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
 * An nginx of its own: prefix, main config, pid, temp and log paths in a temp dir, listening on
 * two free loopback ports, in the foreground so the suite owns the process and ends it.
 */
export async function startNginx(): Promise<NginxHarness> {
  const dir = await tempDir('nginx');
  const [httpPort, httpsPort] = [await freePort(), await freePort()];
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
      'events { worker_connections 64; }',
      'http {',
      '  access_log off;',
      '  types { text/html html; text/plain txt; }',
      '  default_type application/octet-stream;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      // The catch-all answers 404 to hosts the panel does not serve.
      `  server { listen 127.0.0.1:${httpPort} default_server; return 404; }`,
      `  include ${path.join(dir, 'atalaya', 'sites')}/*.conf;`,
      '}',
      '',
    ].join('\n'),
  );
  const options = {
    nginx: NGINX,
    confFile: conf,
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
  const daemon = startDaemon(NGINX, ['-e', path.join(dir, 'startup.log'), '-c', conf, '-p', `${dir}/`]);
  try {
    await waitForPort(httpPort);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`nginx did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return {
    dir,
    httpPort,
    httpsPort,
    options,
    backend: nginxBackend(options),
    async stop() {
      await stopDaemon(daemon.child, 'SIGQUIT');
      await removeDir(dir);
    },
  };
}
