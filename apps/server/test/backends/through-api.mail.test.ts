import path from 'node:path';
import type { MailAccount, MailAlias } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, missingBinaries } from './harness/common.ts';
import { DOVEADM, DOVECOT, type DovecotHarness, imapLogin, POSTMAP, startDovecot } from './harness/dovecot.ts';
import { exec } from './http.ts';
import { openRealApp, REFERENCE, type RealApp } from './through-api.ts';

const skip = missingBinaries(DOVECOT, DOVEADM, POSTMAP, '/usr/lib/dovecot/imap');

describe.skipIf(skip)('mail changes made through the API reach a real Dovecot and Postfix map', () => {
  let h: DovecotHarness;
  let app: RealApp;
  const address = `ventas@${REFERENCE}`;
  const authTest = async (user: string, password: string) =>
    (await exec(DOVEADM, ['-c', h.conf, 'auth', 'test', user, password])).code === 0;
  /** What Postfix would look up for a key in the compiled map; null when it has no entry. */
  const postmapQuery = async (key: string) => {
    const r = await exec(POSTMAP, ['-q', key, `hash:${path.join(h.dir, 'postfix', 'virtual')}`]);
    return r.code === 0 ? r.stdout.trim() : null;
  };
  const accounts = async () => (await app.call<{ correo: MailAccount[] }>(`/service/${app.id}/correo/list/`)).body.data.correo;

  beforeAll(async () => {
    h = await startDovecot();
    // The app's mail driver writes exactly the files the harness's Dovecot reads.
    app = await openRealApp({ 'drivers.mail': { driver: 'dovecot', ...h.backend.options } });
  });
  afterAll(async () => {
    await app?.close();
    await h?.stop();
  });

  it('an account created in the panel signs in to Dovecot with its password once the job ran', async () => {
    const created = await app.call<{ correo: MailAccount }>(`/service/${app.id}/correo/create/`, {
      name: 'Ventas',
      password: 'Secr3t-pass!x',
    });
    expect(created.status).toBe(200);
    expect(created.body.data.correo).toMatchObject({ user: address, state: 'pending' });
    expect(await authTest(address, 'Secr3t-pass!x')).toBe(false); // nothing reaches Dovecot before the outbox runs
    await app.drain();
    expect(await app.jobStatus(created.body.system.job)).toBe('done');
    expect((await accounts()).map((a) => [a.user, a.state])).toEqual([[address, 'ready']]);
    await eventually(() => authTest(address, 'Secr3t-pass!x'), 5_000);
    expect(await imapLogin(h.imapPort, address, 'Secr3t-pass!x')).toBe(true);
    expect(await imapLogin(h.imapPort, address, 'wrong-password')).toBe(false);
    // The quota the panel gives every account is the one Dovecot enforces.
    const user = await exec(DOVEADM, ['-c', h.conf, 'user', address]);
    expect(user.stdout).toContain(`quota_rule\t*:storage=${app.ctx.config.hosting.mailQuotaMb * 1024 * 1024}B`);
  });

  it('mail delivered into the mailbox shows as its usage once measured, beside the quota Dovecot enforces', async () => {
    const measured = async () => {
      await app.call(`/service/${app.id}/usage/refresh/`, {});
      await app.drain();
      return (await accounts())[0]!;
    };
    const before = await measured();
    const body = `From: cliente@example.org\r\nTo: ${address}\r\nSubject: Pedido\r\n\r\n${'Una línea del pedido.\r\n'.repeat(2000)}`;
    // Saved by Dovecot itself, in its own mail format, as a delivery would.
    const saved = await exec(DOVEADM, ['-c', h.conf, 'save', '-u', address], body);
    expect(saved.code, saved.stderr).toBe(0);
    const after = await measured();
    expect(after.usage).toBeGreaterThanOrEqual(before.usage + body.length);
    expect(after.quota).toBe(app.ctx.config.hosting.mailQuotaMb * 1024 * 1024);
  });

  it('a password change through the API locks out the old password and lets the new one in', async () => {
    const [account] = await accounts();
    const changed = await app.call(`/service/${app.id}/correo/${account!.id}/changepassword/`, { password: 'N3w-password?y' });
    expect(changed.status).toBe(200);
    await app.drain();
    expect(await app.jobStatus(changed.body.system.job)).toBe('done');
    // Dovecot looks at the passwd-file at most once a second.
    await eventually(async () => !(await authTest(address, 'Secr3t-pass!x')), 5_000);
    expect(await imapLogin(h.imapPort, address, 'N3w-password?y')).toBe(true);
    expect(await imapLogin(h.imapPort, address, 'Secr3t-pass!x')).toBe(false);
  });

  it('an alias created, changed and deleted through the API is what Postfix looks up', async () => {
    const created = await app.call<{ alias: MailAlias }>(`/service/${app.id}/alias/create/`, {
      name: 'info',
      target: `${address}, Fuera@Otro.test`,
    });
    expect(created.status).toBe(200);
    await app.drain();
    expect(await postmapQuery(`info@${REFERENCE}`)).toBe(`${address}, fuera@otro.test`);
    const aliasId = created.body.data.alias.id;
    await app.call(`/service/${app.id}/alias/${aliasId}/save/`, { target: 'fuera@otro.test' });
    const catchAll = await app.call(`/service/${app.id}/alias/create/`, { name: '', target: address });
    expect(catchAll.status).toBe(200);
    await app.drain();
    expect(await postmapQuery(`info@${REFERENCE}`)).toBe('fuera@otro.test');
    expect(await postmapQuery(`@${REFERENCE}`)).toBe(address);
    await app.call(`/service/${app.id}/alias/${aliasId}/delete/`);
    await app.drain();
    expect(await postmapQuery(`info@${REFERENCE}`)).toBeNull();
    expect((await app.call<{ alias: MailAlias[] }>(`/service/${app.id}/alias/list/`)).body.data.alias.map((a) => a.alias)).toEqual(['']);
  });

  it('an account deleted through the API can no longer sign in, and leaves the list once Dovecot let go', async () => {
    const [account] = await accounts();
    const deleted = await app.call(`/service/${app.id}/correo/${account!.id}/delete/`);
    expect(deleted.status).toBe(200);
    expect((await accounts()).map((a) => a.state)).toEqual(['deleting']);
    expect(await imapLogin(h.imapPort, address, 'N3w-password?y')).toBe(true); // still there until the job runs
    await app.drain();
    expect(await accounts()).toEqual([]);
    await eventually(async () => !(await authTest(address, 'N3w-password?y')), 5_000);
    expect(await imapLogin(h.imapPort, address, 'N3w-password?y')).toBe(false);
  });
});
