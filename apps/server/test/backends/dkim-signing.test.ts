import { mkdir, readdir, readFile } from 'node:fs/promises';
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

describe.skipIf(skip)('DKIM keys the mail driver gives two real OpenDKIMs, one per algorithm, sign mail sent through Postfix', () => {
  let h: DovecotHarness;
  let p: PostfixHarness;
  let dk: OpenDkimHarness;
  let dkEd: OpenDkimHarness;
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
  /** Sends one message from the domain and answers the verifier's result for each signature on it, as it arrived: selector, algorithm, result. */
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
    return results.map((r) => [r.selector, r.status.header?.a, r.status.result]).sort();
  };

  beforeAll(async () => {
    const smtpPort = await freePort();
    h = await startDovecot({ submissionPort: smtpPort });
    const dkimDir = path.join(h.dir, 'opendkim');
    await mkdir(dkimDir, { recursive: true });
    dk = await startOpenDkim(dkimDir, 'rsa');
    dkEd = await startOpenDkim(dkimDir, 'ed25519');
    backend = dovecotBackend({ ...h.backend.options, dkimReload: dk.reload, dkimSignEd25519: true, dkimReloadEd25519: dkEd.reload });
    p = await startPostfix({
      smtpPort,
      domains: ['example.test', 'other.test'],
      lmtpPort: h.lmtpPort,
      quotaStatusPort: h.quotaStatusPort,
      aliasMap: path.join(h.dir, 'postfix', 'virtual'),
      milterPorts: [dk.port, dkEd.port],
    });
    await backend.ensureMailbox({ address: 'cliente@other.test', password: 'Pass-word-1', quota: 0 });
    await eventually(async () => (await exec(DOVEADM, ['-c', h.conf, 'user', 'cliente@other.test'])).code === 0, 5_000);
  }, 30_000);
  afterAll(async () => {
    await p?.stop();
    await dk?.stop();
    await dkEd?.stop();
    await h?.stop();
  });

  it('signs each message twice, rsa-sha256 with the RSA 2048 key and ed25519-sha256 with the Ed25519 key, both verifying against the records the panel publishes', async () => {
    const rsa = generateDkimKey('rsa');
    publish('a1', 'rsa', rsa.publicKey);
    const record = published.get('a1._domainkey.example.test')!;
    expect(record.map((part) => part.length)).toEqual([255, record.join('').length - 255]);
    const ed = generateDkimKey('ed25519');
    publish('a1e', 'ed25519', ed.publicKey);
    await backend.ensureDkim('example.test', [
      { selector: 'a1', algorithm: 'rsa', privateKeyPem: rsa.privateKeyPem, sign: true },
      { selector: 'a1e', algorithm: 'ed25519', privateKeyPem: ed.privateKeyPem, sign: true },
    ]);
    await eventually(async () => (await sendAndVerify()).length === 2, 10_000);
    expect(await sendAndVerify()).toEqual([
      ['a1', 'rsa-sha256', 'pass'],
      ['a1e', 'ed25519-sha256', 'pass'],
    ]);
    // Each instance reads only its algorithm's keys: an Ed25519 key in the RSA signer's tables
    // would defer every message.
    const tables = path.join(h.dir, 'opendkim');
    expect(await readFile(path.join(tables, 'SigningTable'), 'utf8')).toBe('*@example.test a1._domainkey.example.test\n');
    expect(await readFile(path.join(tables, 'SigningTable.ed25519'), 'utf8')).toBe('*@example.test a1e._domainkey.example.test\n');
  });

  it('after a rotation of both keys mail verifies with the new ones while the old ones are still published, and a wrong key fails', async () => {
    const old = generateDkimKey('rsa');
    const next = generateDkimKey('rsa');
    const oldEd = generateDkimKey('ed25519');
    const nextEd = generateDkimKey('ed25519');
    publish('b1', 'rsa', old.publicKey);
    publish('b2', 'rsa', next.publicKey);
    publish('b1e', 'ed25519', oldEd.publicKey);
    publish('b2e', 'ed25519', nextEd.publicKey);
    const keys = (signing: 1 | 2) => [
      { selector: 'b1', algorithm: 'rsa' as const, privateKeyPem: old.privateKeyPem, sign: signing === 1 },
      { selector: 'b2', algorithm: 'rsa' as const, privateKeyPem: next.privateKeyPem, sign: signing === 2 },
      { selector: 'b1e', algorithm: 'ed25519' as const, privateKeyPem: oldEd.privateKeyPem, sign: signing === 1 },
      { selector: 'b2e', algorithm: 'ed25519' as const, privateKeyPem: nextEd.privateKeyPem, sign: signing === 2 },
    ];
    const passing = (n: 1 | 2) =>
      JSON.stringify([
        [`b${n}`, 'rsa-sha256', 'pass'],
        [`b${n}e`, 'ed25519-sha256', 'pass'],
      ]);
    await backend.ensureDkim('example.test', keys(1));
    await eventually(async () => JSON.stringify(await sendAndVerify()) === passing(1), 10_000);
    await backend.ensureDkim('example.test', keys(2));
    await eventually(async () => JSON.stringify(await sendAndVerify()) === passing(2), 10_000);
    // The verifier really checks each key: the record of another key makes that signature fail.
    publish('b2e', 'ed25519', oldEd.publicKey);
    expect(await sendAndVerify()).toEqual([
      ['b2', 'rsa-sha256', 'pass'],
      ['b2e', 'ed25519-sha256', 'fail'],
    ]);
    publish('b2', 'rsa', old.publicKey);
    publish('b2e', 'ed25519', nextEd.publicKey);
    expect(await sendAndVerify()).toEqual([
      ['b2', 'rsa-sha256', 'fail'],
      ['b2e', 'ed25519-sha256', 'pass'],
    ]);
    // Once the old keys are no longer listed their private keys leave the disk.
    await backend.ensureDkim(
      'example.test',
      keys(2)
        .slice(1)
        .filter((k) => k.selector !== 'b1e'),
    );
    expect((await readdir(path.join(h.dir, 'opendkim', 'keys'))).sort()).toEqual(['example.test.b2.private', 'example.test.b2e.private']);
  });

  it('without dkimSignEd25519 an Ed25519 key stays out of every table and mail is signed with RSA alone', async () => {
    const rsa = generateDkimKey('rsa');
    const ed = generateDkimKey('ed25519');
    publish('c1', 'rsa', rsa.publicKey);
    publish('c1e', 'ed25519', ed.publicKey);
    // The Ed25519 instance stays as the signing backend left it (no lines for the domain); its
    // reload command fails, so touching it would fail the call.
    await backend.ensureDkim('example.test', []);
    const rsaOnly = dovecotBackend({
      ...h.backend.options,
      dkimReload: dk.reload,
      dkimSignEd25519: false,
      dkimReloadEd25519: ['/bin/false'],
    });
    await rsaOnly.ensureDkim('example.test', [
      { selector: 'c1', algorithm: 'rsa', privateKeyPem: rsa.privateKeyPem, sign: true },
      { selector: 'c1e', algorithm: 'ed25519', privateKeyPem: ed.privateKeyPem, sign: true },
    ]);
    await eventually(async () => JSON.stringify(await sendAndVerify()) === JSON.stringify([['c1', 'rsa-sha256', 'pass']]), 10_000);
    const tables = path.join(h.dir, 'opendkim');
    expect(await readFile(path.join(tables, 'KeyTable'), 'utf8')).not.toContain('c1e');
    expect(await readFile(path.join(tables, 'KeyTable.ed25519'), 'utf8')).not.toContain('c1e');
  });
});
