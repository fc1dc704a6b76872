import { chown, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { type DovecotBackend, dovecotBackend } from '../../../src/drivers/real/dovecot/dovecot.ts';
import { freePort, removeDir, startDaemon, stopDaemon, tempDir, waitForPort } from './common.ts';

export const DOVECOT = '/usr/sbin/dovecot';
export const DOVEADM = '/usr/bin/doveadm';
export const POSTMAP = '/usr/sbin/postmap';

export interface DovecotHarness {
  dir: string;
  conf: string;
  imapPort: number;
  /** Set when started with `delivery`: LMTP for Postfix and the quota-status policy service. */
  lmtpPort: number;
  quotaStatusPort: number;
  backend: DovecotBackend;
  /** The options the backend was built with (an agent's `drivers.mail` points at the same files). */
  options: Record<string, unknown>;
  stop(): Promise<void>;
}

/** Where a Dovecot that delivers sends what Sieve sends (vacation replies, redirects): Postfix's SMTP port. */
export interface DeliveryOptions {
  submissionPort: number;
}

/**
 * A Dovecot of its own: base_dir, state and logs in a temp dir, IMAP on a free loopback port,
 * passdb and userdb the panel's passwd-file. Mail belongs to `nobody` so no account is created.
 * With `delivery` it also takes mail over LMTP through Sieve (Pigeonhole) with the quota plugin,
 * and answers Postfix's policy queries with quota-status, as a production mail server is set up.
 */
export async function startDovecot(
  delivery?: DeliveryOptions,
  { host = '127.0.0.1', wrap = [] }: { host?: string; wrap?: string[] } = {},
): Promise<DovecotHarness> {
  const dir = await tempDir('dovecot');
  const imapPort = await freePort();
  const lmtpPort = delivery ? await freePort() : 0;
  const quotaStatusPort = delivery ? await freePort() : 0;
  const passwdFile = path.join(dir, 'passwd');
  const conf = path.join(dir, 'dovecot.conf');
  const dovecotGroup = await groupId('dovecot');
  await writeFile(passwdFile, '', { mode: 0o640 });
  await chown(passwdFile, 0, dovecotGroup);
  await writeFile(
    conf,
    `base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = atalaya-test-${imapPort}
protocols = imap${delivery ? ' lmtp' : ''}
listen = ${host}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
log_path = ${dir}/dovecot.log
mail_location = maildir:~/Maildir
default_internal_user = dovecot
default_login_user = dovenull
first_valid_uid = 1
passdb {
  driver = passwd-file
  args = scheme=ARGON2ID username_format=%u ${passwdFile}
}
userdb {
  driver = passwd-file
  args = username_format=%u ${passwdFile}
}
# No growing penalty for the suite's deliberate failed logins (Dovecot's anvil auth penalty).
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
service imap-login {
  inet_listener imap {
    address = ${host}
    port = ${imapPort}
  }
  inet_listener imaps {
    port = 0
  }
}
${delivery ? deliveryConf(lmtpPort, quotaStatusPort, delivery.submissionPort) : ''}`,
  );
  // `wrap` runs it inside another network (`ip netns exec <name>`), where it listens on `host`.
  const daemon = wrap.length
    ? startDaemon(wrap[0]!, [...wrap.slice(1), DOVECOT, '-F', '-c', conf])
    : startDaemon(DOVECOT, ['-F', '-c', conf]);
  try {
    await waitForPort(imapPort, 10_000, host);
    if (delivery) await Promise.all([waitForPort(lmtpPort), waitForPort(quotaStatusPort)]);
  } catch (error) {
    await stopDaemon(daemon.child);
    throw new Error(`dovecot did not start: ${(error as Error).message}\n${daemon.output()}`);
  }
  const options = {
    passwdFile,
    mailRoot: path.join(dir, 'vmail'),
    uid: 65534,
    gid: 65534,
    aliasMap: path.join(dir, 'postfix', 'virtual'),
    dkimDir: path.join(dir, 'opendkim'),
    dkimGroup: await groupId('opendkim').catch(() => undefined),
    dkimReload: [],
    postmap: POSTMAP,
    passwdGroup: dovecotGroup,
    // The cheapest cost Dovecot still accepts keeps the suite quick on a shared machine.
    hashMemoryKiB: 8192,
    hashTime: 1,
  };
  const backend = dovecotBackend(options);
  return {
    dir,
    conf,
    imapPort,
    lmtpPort,
    quotaStatusPort,
    backend,
    options,
    async stop() {
      await stopDaemon(daemon.child);
      await removeDir(dir);
    },
  };
}

/**
 * LMTP with Sieve and the quota plugin (the quota counted by Dovecot, its limit the passwd-file's
 * `quota_rule`), and quota-status answering Postfix at RCPT with 552 once a mailbox is full.
 */
function deliveryConf(lmtpPort: number, quotaStatusPort: number, submissionPort: number) {
  return `mail_plugins = $mail_plugins quota
protocol lmtp {
  mail_plugins = $mail_plugins sieve
}
lmtp_save_to_detail_mailbox = no
recipient_delimiter =
postmaster_address = postmaster@atalaya.test
hostname = mx.atalaya.test
submission_host = 127.0.0.1:${submissionPort}
service lmtp {
  inet_listener lmtp {
    address = 127.0.0.1
    port = ${lmtpPort}
  }
}
service quota-status {
  executable = quota-status -p postfix
  inet_listener {
    address = 127.0.0.1
    port = ${quotaStatusPort}
  }
  client_limit = 1
}
plugin {
  quota = count:User quota
  quota_vsizes = yes
  quota_status_success = DUNNO
  quota_status_nouser = DUNNO
  quota_status_overquota = "552 5.2.2 Mailbox is full"
  sieve = file:~/sieve;active=~/.dovecot.sieve
  sieve_vacation_min_period = 1d
}
`;
}

/** A group's id from /etc/group (the auth process reads the 0640 passwd-file through it). */
async function groupId(name: string): Promise<number> {
  const line = (await readFile('/etc/group', 'utf8')).split('\n').find((l) => l.startsWith(`${name}:`));
  if (!line) throw new Error(`no group ${name}: is dovecot-core installed?`);
  return Number(line.split(':')[2]);
}

const quote = (s: string) => `"${s.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/** An IMAP LOGIN over a plain socket: true when the server answers OK. */
export function imapLogin(port: number, user: string, password: string, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    let buffer = '';
    let sent = false;
    const timer = setTimeout(() => socket.destroy(new Error('IMAP timeout')), 10_000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (!sent && buffer.includes('* OK')) {
        sent = true;
        socket.write(`a1 LOGIN ${quote(user)} ${quote(password)}\r\n`);
      }
      const answer = /^a1 (OK|NO|BAD)/m.exec(buffer);
      if (answer) {
        clearTimeout(timer);
        socket.end('a2 LOGOUT\r\n');
        resolve(answer[1] === 'OK');
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/**
 * Signs in over IMAP and reads the first message of the inbox: the whole conversation, in which a
 * test looks for the message's text (or the refusal).
 */
export function imapFirstMessage(port: number, user: string, password: string, host = '127.0.0.1'): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    let buffer = '';
    let step = 0;
    const timer = setTimeout(() => socket.destroy(new Error('IMAP timeout')), 10_000);
    const end = () => {
      clearTimeout(timer);
      socket.end('a4 LOGOUT\r\n');
      resolve(buffer);
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      if (step === 0 && buffer.includes('* OK')) {
        step = 1;
        socket.write(`a1 LOGIN ${quote(user)} ${quote(password)}\r\n`);
      } else if (step === 1 && /^a1 (OK|NO|BAD)/m.test(buffer)) {
        if (!/^a1 OK/m.test(buffer)) return end();
        step = 2;
        socket.write('a2 SELECT INBOX\r\n');
      } else if (step === 2 && /^a2 (OK|NO|BAD)/m.test(buffer)) {
        step = 3;
        socket.write('a3 FETCH 1 BODY[]\r\n');
      } else if (step === 3 && /^a3 (OK|NO|BAD)/m.test(buffer)) end();
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
