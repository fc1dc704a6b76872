import { chown, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readOrNull, withLock } from '../common/files.ts';
import { absoluteInside, InvalidName } from '../common/names.ts';
import { run, runChecked } from '../common/run.ts';

const absolute = z.string().refine((p) => path.isAbsolute(p) && !p.includes('\0'), 'an absolute path');

/** `config.drivers.ftp` options of the pureftpd driver. */
export const pureFtpdOptionsSchema = z.strictObject({
  purePw: absolute.default('/usr/bin/pure-pw'),
  passwdFile: absolute.default('/etc/pure-ftpd/pureftpd.passwd'),
  /** The PureDB file pure-ftpd reads (`-l puredb:<file>`), rebuilt after every change. */
  pdbFile: absolute.default('/etc/pure-ftpd/pureftpd.pdb'),
  /** Every home must lie inside this directory: the panel's hosting.webRoot, parent of all web roots. */
  homesRoot: absolute.default('/var/www'),
  /** The system user and group the FTP users act as (the owner of the web roots; never root). */
  uid: z.coerce.number().int().min(1).default(33),
  gid: z.coerce.number().int().min(1).default(33),
  timeoutMs: z.coerce.number().int().min(1000).default(60_000),
});

export type PureFtpdOptions = z.infer<typeof pureFtpdOptionsSchema>;

const LOGIN = /^[a-zA-Z0-9][a-zA-Z0-9._-]{0,99}$/;

export type PureFtpdBackend = ReturnType<typeof pureFtpdBackend>;

/**
 * Pure-FTPd virtual users, changed only through `pure-pw` with `-m` (the PureDB is rebuilt with
 * each change, and pure-ftpd reads it per login, so no restart). Passwords reach pure-pw on its
 * stdin, never in its arguments, where any local user could read them with ps.
 */
export function pureFtpdBackend(raw: Record<string, unknown>) {
  const parsed = pureFtpdOptionsSchema.safeParse(raw);
  if (!parsed.success)
    throw new Error(`pureftpd driver options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const o = parsed.data;
  const files = ['-f', o.passwdFile, '-F', o.pdbFile];
  const pw = (args: string[], input?: string) => runChecked(o.purePw, args, { input, timeoutMs: o.timeoutMs });
  const locked = <T>(fn: () => Promise<T>) => withLock(`${o.passwdFile}.atalaya.lock`, fn);

  const login = (value: string) => {
    if (!LOGIN.test(value) || value.includes('..')) throw new InvalidName(`invalid FTP login: ${JSON.stringify(value.slice(0, 40))}`);
    return value;
  };
  const twice = (password: string) => {
    // pure-pw reads a line, then the confirmation; a line break would cut the password short.
    if (!password || /[\r\n\0]/.test(password)) throw new InvalidName('invalid FTP password');
    return `${password}\n${password}\n`;
  };

  async function list() {
    const text = (await readOrNull(o.passwdFile))?.toString('utf8') ?? '';
    return text
      .split('\n')
      .filter((l) => l && !l.startsWith('#'))
      .map((l) => {
        const f = l.split(':');
        return { login: f[0]!, home: (f[5] ?? '').replace(/\/\.\/?$/, '') };
      });
  }

  return {
    options: o,
    list,

    /** Creates the user, or updates home and password of an existing one (safe to retry). */
    ensureUser: (account: { login: string; password: string; home: string }) =>
      locked(async () => {
        const name = login(account.login);
        const home = absoluteInside(o.homesRoot, account.home);
        if (home === path.resolve(o.homesRoot)) throw new InvalidName('an FTP home must be a web root or a folder inside one');
        const input = twice(account.password);
        await mkdir(home, { recursive: true, mode: 0o755 });
        if (process.getuid?.() === 0) await chown(home, o.uid, o.gid);
        const ids = ['-u', String(o.uid), '-g', String(o.gid)];
        // -d (not -D): the user is chrooted to the home and cannot see outside it.
        if ((await list()).some((u) => u.login === name)) {
          await pw(['usermod', name, ...files, ...ids, '-d', home, '-m']);
          await pw(['passwd', name, ...files, '-m'], input);
        } else {
          await pw(['useradd', name, ...files, ...ids, '-d', home, '-m'], input);
        }
      }),

    /** Deletes the user; an unknown login is not an error. */
    removeUser: (value: string) =>
      locked(async () => {
        const name = login(value);
        if (!(await list()).some((u) => u.login === name)) return;
        await pw(['userdel', name, ...files, '-m']);
      }),

    /** Whether pure-pw itself knows the user (for reconcile and tests). */
    async exists(value: string) {
      return (await run(o.purePw, ['show', login(value), '-f', o.passwdFile], { timeoutMs: o.timeoutMs })).code === 0;
    },
  };
}
