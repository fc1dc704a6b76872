import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { eventually, startDaemon, stopDaemon } from './common.ts';

export const PHP_FPM = '/usr/sbin/php-fpm8.2';

export interface PhpFpmHarness {
  socket: string;
  stop(): Promise<void>;
}

/**
 * A php-fpm of its own in the foreground, one pool on a unix socket inside `dir` (the path the
 * nginx harness's vhosts pass PHP to), pid and log in `dir` too, so the suite owns the process.
 */
export async function startPhpFpm(dir: string, socket: string): Promise<PhpFpmHarness> {
  const conf = path.join(dir, 'php-fpm.conf');
  const root = process.getuid?.() === 0;
  await writeFile(
    conf,
    [
      '[global]',
      `pid = ${path.join(dir, 'php-fpm.pid')}`,
      `error_log = ${path.join(dir, 'php-fpm.log')}`,
      'daemonize = no',
      '[site]',
      // As root the pool must name a user; the harness's nginx workers run as root as well.
      ...(root ? ['user = root', 'group = root'] : []),
      `listen = ${socket}`,
      'listen.mode = 0666',
      'pm = static',
      'pm.max_children = 2',
      'catch_workers_output = yes',
      '',
    ].join('\n'),
  );
  const daemon = startDaemon(PHP_FPM, ['--nodaemonize', '--fpm-config', conf, ...(root ? ['--allow-to-run-as-root'] : [])]);
  try {
    await eventually(async () => existsSync(socket), 10_000);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`php-fpm did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return { socket, stop: () => stopDaemon(daemon.child, 'SIGQUIT') };
}
