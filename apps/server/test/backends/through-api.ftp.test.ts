import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FtpUser } from '@atalaya/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { missingBinaries } from './harness/common.ts';
import { curlFtp, PURE_FTPD, PURE_PW, type PureFtpdHarness, startPureFtpd } from './harness/pureftpd.ts';
import { exec } from './http.ts';
import { openRealApp, REFERENCE, type RealApp } from './through-api.ts';

const skip = missingBinaries(PURE_FTPD, PURE_PW, '/usr/bin/curl');
const LOGIN = `web.${REFERENCE}`;
// Characters an FTP client or pure-pw's stdin could mangle: colon, quotes, a backslash.
const PASSWORD = 'Ftp-Pass:1"x\\y';

// Each FTP login verifies pure-pw's argon2id hash (about a second of CPU), so logins are few.
describe.skipIf(skip)('FTP users made through the API reach a real pure-ftpd', { timeout: 120_000 }, () => {
  let h: PureFtpdHarness;
  let app: RealApp;
  const webRoot = () => path.join(h.homesRoot, REFERENCE);
  const ftp = (user: string, password: string, url: string, extra: string[] = []) => curlFtp(h, user, password, url, extra);
  const upload = async (user: string, password: string, name: string) => {
    const local = path.join(h.dir, name);
    await writeFile(local, `${name} through FTP\n`);
    return ftp(user, password, '/', ['-T', local]);
  };
  const users = async () => (await app.call<{ ftps: FtpUser[] }>(`/service/${app.id}/ftp/list/`)).body.data.ftps;

  beforeAll(async () => {
    h = await startPureFtpd();
    // The panel's web root is the directory pure-ftpd's homes must stay inside.
    app = await openRealApp({ 'drivers.ftp': { driver: 'pureftpd', ...h.backend.options }, 'hosting.webRoot': h.homesRoot });
  });
  afterAll(async () => {
    await app?.close();
    await h?.stop();
  });

  it('a user created with a folder signs in with its password and uploads into <web root>/<folder>', async () => {
    const created = await app.call<{ ftp: FtpUser }>(`/service/${app.id}/ftp/create/`, {
      ftpUser: 'web',
      password: PASSWORD,
      folder: '/public/',
    });
    expect(created.status).toBe(200);
    expect(created.body.data.ftp).toMatchObject({ user: LOGIN, directorio: 'public', state: 'pending' });
    await app.drain();
    expect(await app.jobStatus(created.body.system.job)).toBe('done');
    expect((await users()).map((u) => [u.user, u.state])).toEqual([[LOGIN, 'ready']]);
    const up = await upload(LOGIN, PASSWORD, 'first.txt');
    expect(up.code, up.stderr).toBe(0);
    expect(await readFile(path.join(webRoot(), 'public', 'first.txt'), 'utf8')).toBe('first.txt through FTP\n');
  });

  it('reconcile reports a user removed and one added behind the panel, and --repair restores the panel password', async () => {
    // An operator's own pure-pw changes, outside the panel.
    expect((await exec(PURE_PW, ['userdel', LOGIN, '-f', h.backend.options.passwdFile, '-F', h.backend.options.pdbFile, '-m'])).code).toBe(
      0,
    );
    await h.backend.ensureUser({ login: `intruso.${REFERENCE}`, password: 'Intruso-1', home: webRoot() });
    // pure-ftpd answers a refused login only after its anti-brute-force delay (3 to 6 s, compiled in,
    // no option): the report, which changes nothing, runs meanwhile.
    const refused = ftp(LOGIN, PASSWORD, '/');

    // The admin command an operator runs, with the same config file the server would read.
    const configFile = path.join(h.dir, 'atalaya.config.json');
    const { config } = app.ctx;
    await writeFile(
      configFile,
      JSON.stringify({ dataDir: config.dataDir, hosting: { webRoot: config.hosting.webRoot }, drivers: config.drivers }),
    );
    const admin = (...args: string[]) =>
      exec(
        process.execPath,
        ['--disable-warning=ExperimentalWarning', path.resolve('apps/server/src/cli/main.ts'), 'reconcile', ...args],
        undefined,
        {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          ATALAYA_CONFIG: configFile,
        },
      );
    const [report, refusedLogin] = await Promise.all([admin(), refused]);
    expect(refusedLogin.code).not.toBe(0);
    expect(report.code, report.stderr).toBe(0);
    expect(
      report.stdout
        .split('\n')
        .filter((l) => l.startsWith('ftp'))
        .sort(),
    ).toEqual([`ftp\textra\tintruso.${REFERENCE}`, `ftp\tmissing\t${LOGIN}`]);
    expect((await h.backend.list()).map((u) => u.login)).toEqual([`intruso.${REFERENCE}`]); // a report changes nothing

    const repair = await admin('--repair');
    expect(repair.code, repair.stderr).toBe(0);
    expect(repair.stdout).toContain(`ftp\tmissing\t${LOGIN}\trepaired`);
    expect((await h.backend.list()).map((u) => [u.login, u.home])).toEqual([[LOGIN, path.join(webRoot(), 'public')]]);
    const up = await upload(LOGIN, PASSWORD, 'after-repair.txt');
    expect(up.code, up.stderr).toBe(0);
    expect(existsSync(path.join(webRoot(), 'public', 'after-repair.txt'))).toBe(true);
    expect((await admin()).stdout).toContain('No differences');
  });

  it('a user deleted through the API can no longer sign in, and leaves the list once pure-ftpd let go', async () => {
    const [user] = await users();
    const deleted = await app.call(`/service/${app.id}/ftp/${user!.id}/delete/`);
    expect(deleted.status).toBe(200);
    expect((await users()).map((u) => u.state)).toEqual(['deleting']);
    await app.drain();
    expect(await users()).toEqual([]);
    expect(await h.backend.exists(LOGIN)).toBe(false);
    const refused = await ftp(LOGIN, PASSWORD, '/');
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/Access denied|530/);
  });
});
