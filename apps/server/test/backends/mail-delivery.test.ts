import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Mailbox } from '../../src/drivers/mail/interface.ts';
import { eventually, freePort, missingBinaries } from './harness/common.ts';
import { DOVEADM, DOVECOT, type DovecotHarness, POSTMAP, startDovecot } from './harness/dovecot.ts';
import { POSTFIX, type PostfixHarness, sendMail, smtpTalk, startPostfix } from './harness/postfix.ts';
import { exec } from './http.ts';

const skip = missingBinaries(
  DOVECOT,
  DOVEADM,
  POSTMAP,
  POSTFIX,
  '/usr/lib/dovecot/lmtp',
  '/usr/lib/dovecot/quota-status',
  '/usr/lib/dovecot/modules/lib90_sieve_plugin.so',
);

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe.skipIf(skip)('mail delivered through a real Postfix into Dovecot (LMTP, Sieve, quota)', () => {
  let h: DovecotHarness;
  let p: PostfixHarness;
  const box = (address: string, extra: Partial<Mailbox> = {}): Mailbox => ({
    address,
    password: 'Pass-word-1',
    quota: 0,
    autoresponder: null,
    forward: null,
    ...extra,
  });
  /** Creates or changes the mailbox and waits until Dovecot's userdb answers for it (it re-reads the file at most once a second). */
  const ensure = async (address: string, extra: Partial<Mailbox> = {}) => {
    await h.backend.ensureMailbox(box(address, extra));
    const quota = `${extra.quota ?? 0}`;
    await eventually(async () => {
      const r = await exec(DOVEADM, ['-c', h.conf, 'user', '-f', 'quota_rule', address]);
      return r.code === 0 && (quota === '0' ? !r.stdout.includes('storage') : r.stdout.includes(`storage=${quota}B`));
    }, 5_000);
  };
  /** The Subject of every message in the mailbox's INBOX, as Dovecot stored them. */
  const subjects = async (user: string) => {
    const r = await exec(DOVEADM, ['-c', h.conf, 'fetch', '-u', user, 'hdr.subject', 'mailbox', 'INBOX']);
    if (r.code !== 0) throw new Error(r.stderr);
    return [...r.stdout.matchAll(/^hdr\.subject: (.*)$/gm)].map((m) => m[1]!.trim());
  };
  const message = (from: string, to: string, subject: string, body = 'Hola.') =>
    `From: <${from}>\nTo: <${to}>\nSubject: ${subject}\nMessage-ID: <${Math.random().toString(36).slice(2)}@other.test>\n\n${body}\n`;
  const send = (from: string, to: string, subject: string) => sendMail(p.smtpPort, from, to, message(from, to, subject));
  const arrived = async (user: string, expected: string[]) => {
    await eventually(async () => (await subjects(user)).length >= expected.length, 15_000).catch(async (error) => {
      throw new Error(
        `${(error as Error).message}; ${user} holds ${JSON.stringify(await subjects(user))}\n${await p.log()}\n${await readFile(path.join(h.dir, 'dovecot.log'), 'utf8')}`,
      );
    });
    expect((await subjects(user)).sort()).toEqual([...expected].sort());
  };

  beforeAll(async () => {
    const smtpPort = await freePort();
    h = await startDovecot({ submissionPort: smtpPort });
    p = await startPostfix({
      smtpPort,
      domains: ['example.test', 'other.test'],
      lmtpPort: h.lmtpPort,
      quotaStatusPort: h.quotaStatusPort,
      aliasMap: path.join(h.dir, 'postfix', 'virtual'),
    });
    for (const address of ['cliente@other.test', 'otra@other.test']) await ensure(address);
  }, 30_000);
  afterAll(async () => {
    await p?.stop();
    await h?.stop();
  });

  it('an autoresponder answers the first message of a sender within its dates, and not the second', async () => {
    const autoresponder = { subject: 'Fuera de la "oficina"', text: 'Vuelvo el lunes.\nGracias.', start: day(-1), end: day(1), days: 7 };
    await ensure('ana@example.test', { autoresponder });
    await send('cliente@other.test', 'ana@example.test', 'Pedido 1');
    await arrived('cliente@other.test', ['Fuera de la "oficina"']);
    await send('cliente@other.test', 'ana@example.test', 'Pedido 2');
    // Another sender's reply arriving after proves the second message went through Sieve unanswered.
    await send('otra@other.test', 'ana@example.test', 'Consulta');
    await arrived('otra@other.test', ['Fuera de la "oficina"']);
    await arrived('ana@example.test', ['Pedido 1', 'Pedido 2', 'Consulta']);
    expect(await subjects('cliente@other.test')).toEqual(['Fuera de la "oficina"']);
  });

  it('an autoresponder outside its dates answers nobody, one within them does, and one removed leaves plain delivery', async () => {
    for (const address of ['uno@other.test', 'dos@other.test', 'tres@other.test']) await ensure(address);
    const autoresponder = { subject: 'Vacaciones', text: 'Fuera.', start: day(-10), end: day(-2), days: 1 };
    await ensure('luis@example.test', { autoresponder });
    await send('uno@other.test', 'luis@example.test', 'Antes');
    await arrived('luis@example.test', ['Antes']);
    await ensure('luis@example.test', { autoresponder: { ...autoresponder, end: null } });
    await send('dos@other.test', 'luis@example.test', 'Durante');
    await arrived('dos@other.test', ['Vacaciones']);
    await ensure('luis@example.test');
    await send('tres@other.test', 'luis@example.test', 'Después');
    await arrived('luis@example.test', ['Antes', 'Durante', 'Después']);
    // A reply would reach uno or tres before the next message Postfix takes for them.
    await send('dos@other.test', 'uno@other.test', 'Marca');
    await send('dos@other.test', 'tres@other.test', 'Marca');
    await arrived('uno@other.test', ['Marca']);
    await arrived('tres@other.test', ['Marca']);
  });

  it('forwarding delivers to the other addresses, keeping a copy only when asked', async () => {
    for (const address of ['destino@other.test', 'destino2@other.test']) await ensure(address);
    await ensure('reenvia@example.test', { forward: { targets: ['destino@other.test'], keepCopy: true } });
    await ensure('solo@example.test', { forward: { targets: ['Destino@Other.test', 'destino2@other.test'], keepCopy: false } });
    await send('cliente@other.test', 'reenvia@example.test', 'Con copia');
    await send('cliente@other.test', 'solo@example.test', 'Sin copia');
    await arrived('destino@other.test', ['Con copia', 'Sin copia']);
    await arrived('destino2@other.test', ['Sin copia']);
    await arrived('reenvia@example.test', ['Con copia']);
    expect(await subjects('solo@example.test')).toEqual([]);
  });

  it('a mailbox over its quota makes Postfix refuse at RCPT with 552, while one with room accepts', async () => {
    await ensure('llena@example.test');
    const saved = await exec(
      DOVEADM,
      ['-c', h.conf, 'save', '-u', 'llena@example.test'],
      message('a@other.test', 'llena@example.test', 'Grande', 'x'.repeat(60_000)),
    );
    expect(saved.code, saved.stderr).toBe(0);
    await ensure('llena@example.test', { quota: 50_000 });
    const rcpt = async (to: string) =>
      (await smtpTalk(p.smtpPort, ['EHLO client.test', 'MAIL FROM:<cliente@other.test> SIZE=2000', `RCPT TO:<${to}>`, 'QUIT']))[3];
    await eventually(async () => (await rcpt('llena@example.test'))!.startsWith('552'), 5_000);
    expect(await rcpt('llena@example.test')).toMatch(/^552 5\.2\.2 .*full/i);
    expect(await rcpt('ana@example.test')).toMatch(/^250/);
    expect((await h.backend.usage(['llena@example.test']))['llena@example.test']).toBeGreaterThan(50_000);
  });
});
