import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type PureFtpdBackend, pureFtpdBackend } from '../../../src/drivers/real/pureftpd/pureftpd.ts';
import { exec } from '../http.ts';
import { freePort, freePortRange, removeDir, startDaemon, stopDaemon, tempDir, waitForPort } from './common.ts';

export const PURE_FTPD = '/usr/sbin/pure-ftpd';
export const PURE_PW = '/usr/bin/pure-pw';

export interface PureFtpdHarness {
  dir: string;
  port: number;
  homesRoot: string;
  backend: PureFtpdBackend;
  stop(): Promise<void>;
}

/**
 * A pure-ftpd of its own in the foreground: loopback on a free port, a bounded passive range,
 * virtual users from the panel's PureDB only, no anonymous access, everyone chrooted.
 */
export async function startPureFtpd(): Promise<PureFtpdHarness> {
  const dir = await tempDir('pureftpd');
  const port = await freePort();
  const [low, high] = await freePortRange(8);
  const pdbFile = path.join(dir, 'pureftpd.pdb');
  const homesRoot = path.join(dir, 'www');
  const backend = pureFtpdBackend({
    purePw: PURE_PW,
    passwdFile: path.join(dir, 'pureftpd.passwd'),
    pdbFile,
    homesRoot,
    uid: 65534,
    gid: 65534,
  });
  // pure-ftpd wants an existing PureDB: an empty one, built the way production builds it.
  await writeFile(path.join(dir, 'pureftpd.passwd'), '', { mode: 0o600 });
  spawnSync(PURE_PW, ['mkdb', pdbFile, '-f', path.join(dir, 'pureftpd.passwd')]);
  const daemon = startDaemon(PURE_FTPD, [
    '-S',
    `127.0.0.1,${port}`,
    '-l',
    `puredb:${pdbFile}`,
    '-p',
    `${low}:${high}`,
    '-E', // no anonymous
    '-A', // chroot everyone
    '-H', // no reverse DNS
    '-4',
  ]);
  try {
    await waitForPort(port);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`pure-ftpd did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return {
    dir,
    port,
    homesRoot,
    backend,
    async stop() {
      await stopDaemon(daemon.child);
      await removeDir(dir);
    },
  };
}

/** curl's FTP client against the harness; --path-as-is keeps `..`, so the server, not curl, has to refuse it. */
export const curlFtp = (h: PureFtpdHarness, user: string, password: string, url: string, extra: string[] = []) =>
  exec('/usr/bin/curl', [
    '-sS',
    '--ftp-pasv',
    '--path-as-is',
    '--max-time',
    '20',
    '--user',
    `${user}:${password}`,
    ...extra,
    `ftp://127.0.0.1:${h.port}${url}`,
  ]);
