import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort, startDaemon, stopDaemon, waitForPort } from './common.ts';

export const OPENDKIM = '/usr/sbin/opendkim';

export interface OpenDkimHarness {
  port: number;
  /** The argv that makes this instance read its tables again (the driver's `dkimReload`). */
  reload: string[];
  stop(): Promise<void>;
}

/**
 * An OpenDKIM of its own as a signing milter on a loopback port, reading the tables the mail
 * driver writes under `dkimDir` for one algorithm: `KeyTable`/`SigningTable` with rsa-sha256, the
 * `.ed25519` pair with ed25519-sha256 (OpenDKIM 2.11 signs all keys of an instance with one).
 * `RequireSafeKeys false` only because the keys live under /tmp, which anyone may write: OpenDKIM
 * refuses keys below a world-writable folder, which /etc/opendkim never is.
 */
export async function startOpenDkim(dkimDir: string, algorithm: 'rsa' | 'ed25519' = 'rsa'): Promise<OpenDkimHarness> {
  const port = await freePort();
  const suffix = algorithm === 'rsa' ? '' : `.${algorithm}`;
  const conf = path.join(dkimDir, `opendkim${suffix}.conf`);
  await writeFile(path.join(dkimDir, `KeyTable${suffix}`), '', { flag: 'a' });
  await writeFile(path.join(dkimDir, `SigningTable${suffix}`), '', { flag: 'a' });
  await writeFile(
    conf,
    `Mode s
Socket inet:${port}@127.0.0.1
PidFile ${dkimDir}/opendkim${suffix}.pid
UserID opendkim
SignatureAlgorithm ${algorithm}-sha256
KeyTable file:${dkimDir}/KeyTable${suffix}
SigningTable refile:${dkimDir}/SigningTable${suffix}
MultipleSignatures yes
Canonicalization relaxed/relaxed
RequireSafeKeys false
Syslog no
`,
  );
  const daemon = startDaemon(OPENDKIM, ['-f', '-x', conf]);
  try {
    await waitForPort(port);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`opendkim did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  return {
    port,
    reload: ['/bin/kill', '-USR1', String(daemon.child.pid)],
    stop: () => stopDaemon(daemon.child),
  };
}
