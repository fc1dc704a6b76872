import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { dkimVerify } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DkimAlgorithm, dkimRecord, generateDkimKey, txtStrings } from '../../src/dkim.ts';
import { type DovecotBackend, dovecotBackend } from '../../src/drivers/real/dovecot/dovecot.ts';
import { eventually, freePort, missingBinaries } from './harness/common.ts';
import { DOVEADM, DOVECOT, type DovecotHarness, POSTMAP, startDovecot } from './harness/dovecot.ts';
import { OPENDKIM, type OpenDkimHarness, startOpenDkim } from './harness/opendkim.ts';
import { POSTFIX, type PostfixHarness, sendMail, startPostfix } from './harness/postfix.ts';
import { exec } from './http.ts';

const skip = missingBinaries(DOVECOT, DOVEADM, POSTMAP, POSTFIX, OPENDKIM, '/usr/lib/dovecot/lmtp');

describe.skipIf(skip)('DKIM keys the mail driver gives a real OpenDKIM sign mail sent through Postfix', () => {
  let h: DovecotHarness;
  let p: PostfixHarness;
  let dk: OpenDkimHarness;
  let backend: DovecotBackend;
  /** What the panel publishes, by record name: the resolver the verifier asks. */
  const published = new Map<string, string[]>();
  const publish = (selector: string, algorithm: DkimAlgorithm, publicKey: string) =>
    published.set(`${selector}._domainkey.example.test`, txtStrings(dkimRecord(algorithm, publicKey)));
  const resolver = async (name: string, type: string) => {
    const record = type === 'TXT' ? published.get(name) : undefined;
    if (!record) throw Object.assign(new Error(`no ${type} for ${name}`), { code: 'ENOTFOUND' });
    return [record];
  };
  let count = 0;
  /** Sends one message from the domain and answers the verifier's result for each signature on it, as it arrived. */
  const sendAndVerify = async () => {
    const subject = `Firmado ${++count}`;
    await sendMail(
      p.smtpPort,
      'ana@example.test',
      'cliente@other.test',
      `From: Ana <ana@example.test>\nTo: <cliente@other.test>\nSubject: ${subject}\nMessage-ID: <${count}.${Date.now()}@example.test>\n\nHola,\r\nun mensaje firmado.\n`,
    );
    let raw = '';
    await eventually(async () => {
      const r = await exec(DOVEADM, [
        '-c',
        h.conf,
        'fetch',
        '-u',
        'cliente@other.test',
        'text',
        'mailbox',
        'INBOX',
        'header',
        'Subject',
        subject,
      ]);
      raw = r.stdout.replace(/^text:\n/, '');
      return r.code === 0 && raw.includes(subject);
    }, 15_000).catch(async (error) => {
      throw new Error(`${(error as Error).message}\n${await p.log()}`);
    });
    const { results } = await dkimVerify(Buffer.from(raw.replace(/\r?\n/g, '\r\n')), { resolver });
    return results.map((r) => [r.selector, r.status.result]).sort();
  };

  beforeAll(async () => {
    const smtpPort = await freePort();
    h = await startDovecot({ submissionPort: smtpPort });
    const dkimDir = path.join(h.dir, 'opendkim');
    await mkdir(dkimDir, { recursive: true });
    dk = await startOpenDkim(dkimDir);
    backend = dovecotBackend({ ...h.backend.options, dkimReload: dk.reload });
    p = await startPostfix({
      smtpPort,
      domains: ['example.test', 'other.test'],
      lmtpPort: h.lmtpPort,
      quotaStatusPort: h.quotaStatusPort,
      aliasMap: path.join(h.dir, 'postfix', 'virtual'),
      milterPort: dk.port,
    });
    await backend.ensureMailbox({ address: 'cliente@other.test', password: 'Pass-word-1', quota: 0 });
    await eventually(async () => (await exec(DOVEADM, ['-c', h.conf, 'user', 'cliente@other.test'])).code === 0, 5_000);
  }, 30_000);
  afterAll(async () => {
    await p?.stop();
    await dk?.stop();
    await h?.stop();
  });

  it('signs with the RSA 2048 key it was given, verifying against the record the panel publishes, split into 255-byte strings, and keeps Ed25519 out of the signer', async () => {
    const rsa = generateDkimKey('rsa');
    publish('a1', 'rsa', rsa.publicKey);
    const record = published.get('a1._domainkey.example.test')!;
    expect(record.map((part) => part.length)).toEqual([255, record.join('').length - 255]);
    // An Ed25519 key beside it is published but kept out of OpenDKIM's SigningTable (Debian's
    // OpenDKIM would defer every message rather than sign with it), so mail still flows, RSA-signed.
    const ed = generateDkimKey('ed25519');
    publish('a1e', 'ed25519', ed.publicKey);
    await backend.ensureDkim('example.test', [
      { selector: 'a1', algorithm: 'rsa', privateKeyPem: rsa.privateKeyPem, sign: true },
      { selector: 'a1e', algorithm: 'ed25519', privateKeyPem: ed.privateKeyPem, sign: true },
    ]);
    await eventually(async () => (await sendAndVerify()).length === 1, 10_000);
    expect(await sendAndVerify()).toEqual([['a1', 'pass']]);
  });

  it('after a rotation mail verifies with the new key while the old one is still published, and a wrong key fails', async () => {
    const old = generateDkimKey('rsa');
    const next = generateDkimKey('rsa');
    publish('b1', 'rsa', old.publicKey);
    publish('b2', 'rsa', next.publicKey);
    await backend.ensureDkim('example.test', [
      { selector: 'b1', algorithm: 'rsa', privateKeyPem: old.privateKeyPem, sign: true },
      { selector: 'b2', algorithm: 'rsa', privateKeyPem: next.privateKeyPem, sign: false },
    ]);
    await eventually(async () => JSON.stringify(await sendAndVerify()) === JSON.stringify([['b1', 'pass']]), 10_000);
    await backend.ensureDkim('example.test', [
      { selector: 'b1', algorithm: 'rsa', privateKeyPem: old.privateKeyPem, sign: false },
      { selector: 'b2', algorithm: 'rsa', privateKeyPem: next.privateKeyPem, sign: true },
    ]);
    await eventually(async () => JSON.stringify(await sendAndVerify()) === JSON.stringify([['b2', 'pass']]), 10_000);
    // The verifier really checks the key: the record of another key makes it fail.
    publish('b2', 'rsa', old.publicKey);
    expect(await sendAndVerify()).toEqual([['b2', 'fail']]);
    // Once the old key is no longer listed its private key leaves the disk.
    await backend.ensureDkim('example.test', [{ selector: 'b2', algorithm: 'rsa', privateKeyPem: next.privateKeyPem, sign: true }]);
    expect(await readdir(path.join(h.dir, 'opendkim', 'keys'))).toEqual(['example.test.b2.private']);
  });
});
