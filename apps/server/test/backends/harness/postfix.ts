import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { exec } from '../http.ts';
import { removeDir, startDaemon, stopDaemon, tempDir, waitForPort } from './common.ts';

export const POSTFIX = '/usr/sbin/postfix';

export interface PostfixHarness {
  dir: string;
  smtpPort: number;
  /** The instance's log (its `maillog_file`), for a failing test's message. */
  log(): Promise<string>;
  stop(): Promise<void>;
}

export interface PostfixOptions {
  smtpPort: number;
  /** Domains whose mail Postfix hands to Dovecot over LMTP. */
  domains: string[];
  lmtpPort: number;
  quotaStatusPort: number;
  /** The panel's alias map source (the compiled `hash:` map beside it). */
  aliasMap: string;
  /** Signing milters (OpenDKIM) every message passes through, in this order. */
  milterPorts?: number[];
}

/** The services the instance runs; none chrooted, SMTP on a loopback port of its own. */
const masterCf = (smtpPort: number) =>
  `127.0.0.1:${smtpPort} inet n - n - - smtpd
${[
  ['pickup', 'unix', 'n', '60', '1'],
  ['cleanup', 'unix', 'n', '-', '0'],
  ['qmgr', 'unix', 'n', '300', '1'],
  ['rewrite', 'unix', '-', '-', '-', 'trivial-rewrite'],
  ['bounce', 'unix', '-', '-', '0'],
  ['defer', 'unix', '-', '-', '0', 'bounce'],
  ['trace', 'unix', '-', '-', '0', 'bounce'],
  ['verify', 'unix', '-', '-', '1'],
  ['flush', 'unix', 'n', '1000?', '0'],
  ['proxymap', 'unix', '-', '-', '-'],
  ['smtp', 'unix', '-', '-', '-'],
  ['showq', 'unix', 'n', '-', '-'],
  ['error', 'unix', '-', '-', '-'],
  ['retry', 'unix', '-', '-', '-', 'error'],
  ['discard', 'unix', '-', '-', '-'],
  ['lmtp', 'unix', '-', '-', '-'],
  ['anvil', 'unix', '-', '-', '1'],
  ['scache', 'unix', '-', '-', '1'],
  ['postlog', 'unix-dgram', 'n', '-', '1', 'postlogd'],
]
  .map(([name, type, priv, wakeup, limit, command]) => `${name} ${type} ${priv} - n ${wakeup} ${limit} ${command ?? name}`)
  .join('\n')}
`;

/**
 * A Postfix instance of its own (config, queue and log in a temp dir) that accepts mail on a
 * loopback port for `domains`, resolves the panel's aliases, asks Dovecot's quota-status at RCPT
 * and delivers over LMTP. Started in the foreground (`start-fg`) and stopped by its own pid.
 */
export async function startPostfix(o: PostfixOptions): Promise<PostfixHarness> {
  const dir = await tempDir('postfix');
  const conf = path.join(dir, 'conf');
  await mkdir(conf);
  await mkdir(path.join(dir, 'queue'));
  await mkdir(path.join(dir, 'data'));
  await exec('chown', ['postfix', path.join(dir, 'data')]);
  await mkdir(path.dirname(o.aliasMap), { recursive: true });
  await writeFile(o.aliasMap, '', { flag: 'a' });
  await exec('/usr/sbin/postmap', [`hash:${o.aliasMap}`]);
  await writeFile(
    path.join(conf, 'main.cf'),
    `compatibility_level = 3.6
queue_directory = ${dir}/queue
data_directory = ${dir}/data
maillog_file_prefixes = ${dir}
maillog_file = ${dir}/maillog
mail_owner = postfix
setgid_group = postdrop
myhostname = mx.atalaya.test
mydestination =
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
alias_maps =
alias_database =
smtputf8_enable = no
virtual_mailbox_domains = ${o.domains.join(' ')}
smtpd_reject_unlisted_recipient = no
virtual_alias_maps = hash:${o.aliasMap}
virtual_transport = lmtp:inet:127.0.0.1:${o.lmtpPort}
smtpd_recipient_restrictions = check_policy_service inet:127.0.0.1:${o.quotaStatusPort}, permit_mynetworks, reject_unauth_destination
${
  o.milterPorts?.length
    ? `smtpd_milters = ${o.milterPorts.map((port) => `inet:127.0.0.1:${port}`).join(', ')}
non_smtpd_milters = $smtpd_milters
milter_default_action = tempfail
`
    : ''
}`,
  );
  await writeFile(path.join(conf, 'master.cf'), masterCf(o.smtpPort));
  // `check` creates the queue's directories with their owners.
  const check = await exec(POSTFIX, ['-c', conf, 'check']);
  if (check.code !== 0) throw new Error(`postfix check failed: ${check.stderr}`);
  const daemon = startDaemon(POSTFIX, ['-c', conf, 'start-fg']);
  const log = () => exec('cat', [path.join(dir, 'maillog')]).then((r) => r.stdout);
  try {
    await waitForPort(o.smtpPort);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`postfix did not start: ${(error as Error).message}\n${daemon.output()}\n${await log()}`);
  }
  return {
    dir,
    smtpPort: o.smtpPort,
    log,
    async stop() {
      await stopDaemon(daemon.child);
      await removeDir(dir);
    },
  };
}

/** One SMTP conversation: each command's reply code and text, in order (the greeting first). */
export function smtpTalk(port: number, commands: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const replies: string[] = [];
    let buffer = '';
    let next = 0;
    const timer = setTimeout(() => socket.destroy(new Error(`SMTP timeout after ${replies.join(' | ')}`)), 15_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      // A reply ends with a line whose code is followed by a space (not a dash).
      for (let m = /^(\d{3}) .*\r\n/m.exec(buffer); m; m = /^(\d{3}) .*\r\n/m.exec(buffer)) {
        const end = m.index + m[0].length;
        replies.push(buffer.slice(0, end).trim());
        buffer = buffer.slice(end);
        if (next < commands.length) socket.write(`${commands[next++]}\r\n`);
        else {
          clearTimeout(timer);
          socket.end();
          resolve(replies);
        }
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Submits one message over SMTP; throws unless Postfix queued it (250 after the data). */
export async function sendMail(port: number, from: string, to: string, message: string): Promise<void> {
  const data = `${message.replace(/\r?\n/g, '\r\n').replace(/^\./gm, '..')}\r\n.`;
  const replies = await smtpTalk(port, ['EHLO client.test', `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`, 'DATA', data, 'QUIT']);
  if (!replies[5]?.startsWith('250')) throw new Error(`message not accepted: ${replies.join(' | ')}`);
}
