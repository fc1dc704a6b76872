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
  host: string;
  port: number;
  homesRoot: string;
  /** The pureftpd driver's options (`config.drivers.ftp`) for this daemon. */
  options: Record<string, unknown>;
  backend: PureFtpdBackend;
  stop(): Promise<void>;
}

/**
 * A pure-ftpd of its own in the foreground: loopback (or `host`, inside the network `wrap` runs it
 * in) on a free port, a bounded passive range, virtual users from the panel's PureDB only, no
 * anonymous access, everyone chrooted. Homes lie under `homesRoot` (a node's web roots), else
 * under its own directory.
 */
export async function startPureFtpd({
  host = '127.0.0.1',
  wrap = [],
  homesRoot: homes,
}: {
  host?: string;
  wrap?: string[];
  homesRoot?: string;
} = {}): Promise<PureFtpdHarness> {
  const dir = await tempDir('pureftpd');
  const port = await freePort();
  const [low, high] = await freePortRange(8);
  const pdbFile = path.join(dir, 'pureftpd.pdb');
  const homesRoot = homes ?? path.join(dir, 'www');
  const options = { purePw: PURE_PW, passwdFile: path.join(dir, 'pureftpd.passwd'), pdbFile, homesRoot, uid: 65534, gid: 65534 };
  const backend = pureFtpdBackend(options);
  // pure-ftpd wants an existing PureDB: an empty one, built the way production builds it.
  await writeFile(path.join(dir, 'pureftpd.passwd'), '', { mode: 0o600 });
  spawnSync(PURE_PW, ['mkdb', pdbFile, '-f', path.join(dir, 'pureftpd.passwd')]);
  const args = [
    '-S',
    `${host},${port}`,
    '-l',
    `puredb:${pdbFile}`,
    '-p',
    `${low}:${high}`,
    '-E', // no anonymous
    '-A', // chroot everyone
    '-H', // no reverse DNS
    '-4',
  ];
  const daemon = wrap.length ? startDaemon(wrap[0]!, [...wrap.slice(1), PURE_FTPD, ...args]) : startDaemon(PURE_FTPD, args);
  try {
    await waitForPort(port, 10_000, host);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`pure-ftpd did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return {
    dir,
    host,
    port,
    homesRoot,
    options,
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
    `ftp://${h.host}:${h.port}${url}`,
  ]);
