import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingBinaries } from './harness/common.ts';
import { curlFtp, PURE_FTPD, PURE_PW, type PureFtpdHarness, startPureFtpd } from './harness/pureftpd.ts';

const skip = missingBinaries(PURE_FTPD, PURE_PW, '/usr/bin/curl');

// Each login verifies pure-pw's argon2id hash (about a second of CPU, more on a busy machine).
describe.skipIf(skip)('the Pure-FTPd backend against a real pure-ftpd on loopback', { timeout: 120_000 }, () => {
  let h: PureFtpdHarness;
  const site = () => path.join(h.homesRoot, 'example.test');
  const ftp = (user: string, password: string, url: string, extra: string[] = []) => curlFtp(h, user, password, url, extra);

  beforeAll(async () => {
    h = await startPureFtpd();
    await mkdir(path.join(site(), 'private'), { recursive: true });
    await writeFile(path.join(site(), 'private', 'secret.txt'), 'not for FTP\n');
  });
  afterAll(async () => h?.stop());

  it('creates a user whose login lists and uploads into its folder, and nowhere else', async () => {
    await h.backend.ensureUser({ login: 'ana.example.test', password: 'Ftp-Pass:1 "x"', home: path.join(site(), 'public') });
    const local = path.join(h.dir, 'upload.txt');
    await writeFile(local, 'uploaded through FTP\n');
    const up = await ftp('ana.example.test', 'Ftp-Pass:1 "x"', '/', ['-T', local]);
    expect(up.code, up.stderr).toBe(0);
    expect(await readFile(path.join(site(), 'public', 'upload.txt'), 'utf8')).toBe('uploaded through FTP\n');
    const outside = await ftp('ana.example.test', 'Ftp-Pass:1 "x"', '/../private/secret.txt');
    expect(outside.code).not.toBe(0);
    expect(outside.stdout).not.toContain('not for FTP');
    const passwd = await readFile(path.join(h.dir, 'pureftpd.passwd'), 'utf8');
    expect(passwd).toMatch(/^ana\.example\.test:\$argon2id\$.*:65534:65534::.*\/example\.test\/public\/\.\/:/m);
    expect(passwd).not.toContain('Ftp-Pass');
  });

  it('a password change locks out the old password; a home change moves the chroot', async () => {
    await mkdir(path.join(site(), 'blog'), { recursive: true });
    await writeFile(path.join(site(), 'blog', 'post.html'), 'post\n');
    await h.backend.ensureUser({ login: 'ana.example.test', password: 'New-Pass-2', home: path.join(site(), 'blog') });
    // pure-ftpd answers a refused login only after its anti-brute-force delay (3 to 6 s, compiled in,
    // no option): the new password's login runs meanwhile instead of after it.
    const [old, listing] = await Promise.all([
      ftp('ana.example.test', 'Ftp-Pass:1 "x"', '/'),
      ftp('ana.example.test', 'New-Pass-2', '/', ['--list-only']),
    ]);
    expect(old.code).not.toBe(0);
    expect(listing.code, listing.stderr).toBe(0);
    expect(listing.stdout.split(/\r?\n/).filter((n) => n && n !== '.' && n !== '..')).toEqual(['post.html']);
  });

  it('deletes a user so that it can no longer sign in', async () => {
    await h.backend.removeUser('ana.example.test');
    await h.backend.removeUser('ana.example.test'); // twice is not an error
    expect(await h.backend.exists('ana.example.test')).toBe(false);
    expect((await ftp('ana.example.test', 'New-Pass-2', '/')).code).not.toBe(0);
    expect(await h.backend.list()).toEqual([]);
  });

  it('refuses homes outside the web roots, bad logins and passwords with line breaks', async () => {
    await expect(h.backend.ensureUser({ login: 'x.example.test', password: 'p', home: '/etc' })).rejects.toThrow();
    await expect(h.backend.ensureUser({ login: 'x.example.test', password: 'p', home: `${site()}/../../..` })).rejects.toThrow();
    // The parent of every web root is no one's home: it would open all the sites to one login.
    for (const home of [h.homesRoot, `${h.homesRoot}/`, `${site()}/..`]) {
      await expect(h.backend.ensureUser({ login: 'x.example.test', password: 'p', home })).rejects.toThrow(/web root/);
    }
    await expect(h.backend.ensureUser({ login: 'x:0:0', password: 'p', home: site() })).rejects.toThrow(/login/);
    await expect(h.backend.ensureUser({ login: 'x.example.test', password: 'a\nb', home: site() })).rejects.toThrow(/password/);
    expect(existsSync(path.join(h.dir, 'etc'))).toBe(false);
    expect(await h.backend.list()).toEqual([]);
  });
});
