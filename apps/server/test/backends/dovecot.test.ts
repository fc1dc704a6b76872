import { statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryMap } from '../../src/drivers/real/dovecot/postfix-map.ts';
import { eventually, missingBinaries } from './harness/common.ts';
import { DOVEADM, DOVECOT, type DovecotHarness, imapLogin, POSTMAP, startDovecot } from './harness/dovecot.ts';
import { exec } from './http.ts';

const skip = missingBinaries(DOVECOT, DOVEADM, POSTMAP, '/usr/lib/dovecot/imap');

describe.skipIf(skip)('the Dovecot and Postfix-map backend against a real Dovecot on loopback', () => {
  let h: DovecotHarness;
  const authTest = async (user: string, password: string) =>
    (await exec(DOVEADM, ['-c', h.conf, 'auth', 'test', user, password])).code === 0;
  beforeAll(async () => {
    h = await startDovecot();
  });
  afterAll(async () => h?.stop());

  it('creates a mailbox that signs in with the panel password, by doveadm and by IMAP LOGIN', async () => {
    await h.backend.ensureMailbox({ address: 'Ana@Example.test', password: 'Panel-Pass_1"x', quota: 50 * 1024 * 1024 });
    expect(await authTest('ana@example.test', 'Panel-Pass_1"x')).toBe(true);
    expect(await imapLogin(h.imapPort, 'ana@example.test', 'Panel-Pass_1"x')).toBe(true);
    expect(await imapLogin(h.imapPort, 'ana@example.test', 'wrong')).toBe(false);
    const passwd = await readFile(path.join(h.dir, 'passwd'), 'utf8');
    expect(passwd).toMatch(/^ana@example\.test:\{ARGON2ID\}\$argon2id\$v=19\$m=8192,t=1,p=1\$/m);
    expect(passwd).not.toContain('Panel-Pass');
    expect(statSync(path.join(h.dir, 'passwd')).mode & 0o777).toBe(0o640);
    // Dovecot's userdb hands out the quota and the home under the mail root.
    const user = await exec(DOVEADM, ['-c', h.conf, 'user', 'ana@example.test']);
    expect(user.stdout).toContain(`home\t${path.join(h.dir, 'vmail', 'example.test', 'ana')}`);
    expect(user.stdout).toMatch(/quota_rule\s+\*:storage=52428800B/);
  });

  it('a password change locks out the old password; a delete locks out the new one', async () => {
    await h.backend.ensureMailbox({ address: 'ana@example.test', password: 'Second-Pass-2', quota: 0 });
    // Dovecot looks at the file at most once a second: the change shows within that.
    await eventually(async () => !(await authTest('ana@example.test', 'Panel-Pass_1"x')), 5_000);
    expect(await imapLogin(h.imapPort, 'ana@example.test', 'Second-Pass-2')).toBe(true);
    expect(await imapLogin(h.imapPort, 'ana@example.test', 'Panel-Pass_1"x')).toBe(false);
    await h.backend.ensureMailbox({ address: 'luis@example.test', password: 'Luis-Pass-3', quota: 0 });
    await h.backend.removeMailbox('ana@example.test');
    await eventually(async () => !(await authTest('ana@example.test', 'Second-Pass-2')), 5_000);
    expect(await imapLogin(h.imapPort, 'ana@example.test', 'Second-Pass-2')).toBe(false);
    expect(await imapLogin(h.imapPort, 'luis@example.test', 'Luis-Pass-3')).toBe(true);
    expect((await h.backend.list()).mailboxes.map((m) => m.address)).toEqual(['luis@example.test']);
  });

  it('keeps aliases in a compiled Postfix map that lists their targets, catch-all included', async () => {
    const map = path.join(h.dir, 'postfix', 'virtual');
    await h.backend.ensureAlias({ address: 'info@example.test', targets: ['luis@example.test', 'ext@other.test'] });
    await h.backend.ensureAlias({ address: '@example.test', targets: ['luis@example.test'] });
    expect(await queryMap(map, 'info@example.test', POSTMAP, 'hash')).toBe('luis@example.test, ext@other.test');
    expect(await queryMap(map, '@example.test', POSTMAP, 'hash')).toBe('luis@example.test');
    await h.backend.ensureAlias({ address: 'info@example.test', targets: ['ext@other.test'] });
    expect(await queryMap(map, 'info@example.test', POSTMAP, 'hash')).toBe('ext@other.test');
    await h.backend.removeAlias('info@example.test');
    expect(await queryMap(map, 'info@example.test', POSTMAP, 'hash')).toBeNull();
    expect((await h.backend.list()).aliases).toEqual([{ address: '@example.test', targets: ['luis@example.test'] }]);
  });

  it('refuses addresses that would forge passwd-file fields, map lines or leave the mail root', async () => {
    await expect(h.backend.ensureMailbox({ address: 'x:0:0@example.test', password: 'p', quota: 0 })).rejects.toThrow(/address/);
    await expect(h.backend.ensureMailbox({ address: 'x@example.test\nroot@example.test', password: 'p', quota: 0 })).rejects.toThrow();
    await expect(h.backend.ensureMailbox({ address: '..@example.test', password: 'p', quota: 0 })).rejects.toThrow();
    await expect(h.backend.ensureAlias({ address: 'a@example.test', targets: ['b@x.test other@y.test'] })).rejects.toThrow(/address/);
    expect((await h.backend.list()).mailboxes.map((m) => m.address)).toEqual(['luis@example.test']);
  });

  it("reports each mailbox's bytes on disk", async () => {
    const home = h.backend.homeOf('luis@example.test');
    await writeFile(path.join(home, 'note'), 'x'.repeat(1234));
    expect(await h.backend.usage(['luis@example.test', 'nobody@example.test'])).toEqual({ 'luis@example.test': 1234 });
  });
});
