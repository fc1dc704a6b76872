import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BackupError, type BackupRepository } from '../../src/drivers/backups/interface.ts';
import { resticDriver } from '../../src/drivers/backups/restic.ts';
import { freePort, missingBinaries, startDaemon, stopDaemon, tempDir, waitForPort } from '../backends/harness/common.ts';
import { digestTree, makeTree, REFERENCE, RESTIC } from './helpers.ts';

/**
 * The kinds of repository a realm may have, each on a real server started here on loopback:
 * SFTP on OpenSSH's sshd (its own host key, key login), restic's REST protocol on `rclone serve
 * restic`, and S3 on s3rver (npm, TLS: over plain HTTP restic signs each chunk, which s3rver keeps
 * in the objects). For each: snapshot, delete, restore, compare byte for byte.
 */
const SSHD = '/usr/sbin/sshd';
const RCLONE = '/usr/bin/rclone';
/** s3rver, a dev dependency of the project (docs/decisions/062-backups-restic.md). */
const S3RVER = createRequire(import.meta.url).resolve('s3rver/bin/s3rver.js');
const PORTS = { sshd: 0, rest: 0, s3: 0, away: 0 };
const skip = missingBinaries(RESTIC, SSHD, RCLONE, '/usr/bin/ssh-keygen');

describe.skipIf(skip)('the restic driver on remote repositories', () => {
  let base: string;
  let tree: ReturnType<typeof makeTree>;
  let driver: ReturnType<typeof resticDriver>;
  const daemons: ReturnType<typeof startDaemon>[] = [];
  const repos: Record<string, BackupRepository> = {};

  beforeAll(async () => {
    base = await tempDir('restic-remote');
    for (const name of Object.keys(PORTS) as (keyof typeof PORTS)[]) PORTS[name] = await freePort();
    tree = makeTree(base);
    driver = resticDriver({
      restic: { binary: RESTIC, cacheDir: path.join(base, 'cache') },
      webRoot: tree.webRoot,
      mailRoot: tree.mailRoot,
      databases: () => undefined,
    });
    // sshd: its own host key and authorized key, no password, on loopback.
    const ssh = path.join(base, 'ssh');
    mkdirSync(ssh, { mode: 0o700 });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(ssh, 'host')]);
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(ssh, 'client')]);
    execFileSync('cp', [path.join(ssh, 'client.pub'), path.join(ssh, 'authorized_keys')]);
    writeFileSync(
      path.join(ssh, 'sshd_config'),
      [
        `HostKey ${ssh}/host`,
        `AuthorizedKeysFile ${ssh}/authorized_keys`,
        `PidFile ${ssh}/sshd.pid`,
        'ListenAddress 127.0.0.1',
        'PasswordAuthentication no',
        'KbdInteractiveAuthentication no',
        'UsePAM no',
        'StrictModes no',
        'PermitRootLogin prohibit-password',
        'Subsystem sftp internal-sftp',
        '',
      ].join('\n'),
    );
    mkdirSync('/run/sshd', { recursive: true });
    daemons.push(startDaemon(SSHD, ['-D', '-e', '-f', path.join(ssh, 'sshd_config'), '-p', String(PORTS.sshd)]));
    const sshCommand = `ssh -i ${ssh}/client -p ${PORTS.sshd} -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o BatchMode=yes -o LogLevel=ERROR root@127.0.0.1 -s sftp`;
    repos.sftp = { url: `sftp:root@127.0.0.1:${base}/sftp-repo`, password: 'sftp-key', options: { 'sftp.command': sshCommand } };
    daemons.push(
      startDaemon(RCLONE, ['serve', 'restic', '--addr', `127.0.0.1:${PORTS.rest}`, path.join(base, 'rest-repos')], {
        RCLONE_CONFIG: '/dev/null',
      }),
    );
    repos.rest = { url: `rest:http://127.0.0.1:${PORTS.rest}/realm1/`, password: 'rest-key' };
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'],
        ...['-keyout', path.join(base, 's3.key'), '-out', path.join(base, 's3.pem'), '-subj', '/CN=127.0.0.1'],
        ...['-addext', 'subjectAltName=IP:127.0.0.1'],
      ],
      { stdio: 'ignore' },
    );
    mkdirSync(path.join(base, 's3'));
    daemons.push(
      startDaemon(process.execPath, [
        ...[S3RVER, '-d', path.join(base, 's3'), '-a', '127.0.0.1', '-p', String(PORTS.s3), '-s'],
        ...['--key', path.join(base, 's3.key'), '--cert', path.join(base, 's3.pem'), '--configure-bucket', 'atalaya'],
      ]),
    );
    // restic (Go) trusts the server's certificate through SSL_CERT_FILE; s3rver's own keys.
    repos.s3 = {
      url: `s3:https://127.0.0.1:${PORTS.s3}/atalaya/realm1`,
      password: 's3-key',
      env: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', SSL_CERT_FILE: path.join(base, 's3.pem') },
    };
    await Promise.all([PORTS.sshd, PORTS.rest, PORTS.s3].map((p) => waitForPort(p, 20_000)));
  });
  afterAll(async () => {
    for (const d of daemons) await stopDaemon(d.child);
    rmSync(base, { recursive: true, force: true });
  });

  for (const kind of ['sftp', 'rest', 's3']) {
    it(`snapshots to ${kind}, restores a deleted file and a changed one, byte for byte`, async () => {
      const repo = repos[kind];
      if (!repo) throw new Error(`no ${kind} repository was set up`);
      const before = digestTree(tree.site);
      await driver.ensureRepository(repo);
      const { parts } = await driver.snapshot(repo, { tags: [`realm:${kind}`], host: 'web1', web: { reference: REFERENCE } });
      rmSync(path.join(tree.site, 'index.html'));
      writeFileSync(path.join(tree.site, 'img/logo.bin'), 'changed');
      await driver.restore(repo, { parts, part: 'web', path: '/', target: 'replace', stamp: 'x' });
      expect(digestTree(tree.site)).toEqual(before);
    });
  }

  it('names an unreachable repository by its key, not by a transport error', async () => {
    const away = { url: `rest:http://127.0.0.1:${PORTS.away}/realm1/`, password: 'x' };
    const error = await driver.ensureRepository(away).catch((e) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as BackupError).key).toBe('backups.repository_unreachable');
  });
});
