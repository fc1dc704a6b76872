import { chown, mkdir, readdir, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import type { Mailbox } from '../../mail/interface.ts';
import { readOrNull, withLock, writeAtomic } from '../common/files.ts';
import { mailAddress, resolveInside } from '../common/names.ts';
import { openDkimTables } from './opendkim.ts';
import { dovecotOptions } from './options.ts';
import { formatPasswd, type PasswdEntry, parsePasswd, quotaField, quotaOf } from './passwd-file.ts';
import { readMap, writeMap } from './postfix-map.ts';
import { sieveScript } from './sieve.ts';

export type DovecotBackend = ReturnType<typeof dovecotBackend>;

/**
 * Mailboxes in a Dovecot passwd-file (argon2id hashes, quota, home under the mail root) and
 * aliases in a Postfix virtual alias map. Dovecot re-reads the passwd-file when it changes, so no
 * reload is needed; each write replaces the whole file atomically under a lock.
 */
export function dovecotBackend(raw: Record<string, unknown>) {
  const o = dovecotOptions(raw);
  const lock = <T>(file: string, fn: () => Promise<T>) => withLock(`${file}.lock`, fn);

  const homeOf = (address: string) => {
    const { local, domain } = mailAddress(address);
    return resolveInside(o.mailRoot, path.join(domain, local));
  };

  async function readEntries() {
    return parsePasswd((await readOrNull(o.passwdFile))?.toString('utf8') ?? '');
  }

  /** Rewrites the passwd-file with `change` applied to the lines; 0640, as it holds hashes. */
  async function updatePasswd(change: (lines: ReturnType<typeof parsePasswd>) => ReturnType<typeof parsePasswd>) {
    await lock(o.passwdFile, async () => {
      await mkdir(path.dirname(o.passwdFile), { recursive: true, mode: 0o750 });
      const before = await stat(o.passwdFile).then(
        (s) => Math.floor(s.mtimeMs / 1000),
        () => 0,
      );
      await writeAtomic(o.passwdFile, formatPasswd(change(await readEntries())), 0o640, o.passwdGroup);
      // Dovecot re-reads the file when its mtime (whole seconds) or size changes; two same-size
      // writes within one second would otherwise leave it on the older one for good.
      const stamp = Math.max(Math.floor(Date.now() / 1000), before + 1);
      await utimes(o.passwdFile, stamp, stamp);
    });
  }

  const aliasKey = (address: string) => {
    const { local, domain } = mailAddress(address, true);
    return `${local}@${domain}`;
  };

  async function updateAliases(change: (map: Awaited<ReturnType<typeof readMap>>) => void) {
    await lock(o.aliasMap, async () => {
      const map = await readMap(o.aliasMap);
      change(map);
      await writeMap(o.aliasMap, map, o.postmap, o.mapType);
    });
  }

  /**
   * The account's script where Dovecot's `sieve` setting points (`active=~/.dovecot.sieve`),
   * owned by the mail user; the compiled copy is removed so the next delivery compiles this one
   * even when both fall within the same second.
   */
  async function writeSieve(home: string, script: string | null) {
    const file = path.join(home, o.sieveFile);
    await rm(path.join(home, o.sieveFile.replace(/\.sieve$/, '.svbin')), { force: true });
    if (script === null) {
      await rm(file, { force: true });
      return;
    }
    await writeAtomic(file, script, 0o600);
    if (process.getuid?.() === 0) await chown(file, o.uid, o.gid);
  }

  const dkim = openDkimTables(o);

  return {
    options: o,
    homeOf,
    ensureDkim: dkim.ensure,

    async ensureMailbox(box: Mailbox) {
      const { local, domain } = mailAddress(box.address);
      const user = `${local}@${domain}`;
      if (box.password.length === 0 || box.password.includes('\0')) throw new Error('invalid mailbox password');
      const home = homeOf(user);
      // argon2id is the library default; parallelism 1 is what libsodium (Dovecot) verifies everywhere.
      const password = `{ARGON2ID}${await hash(box.password, { memoryCost: o.hashMemoryKiB, timeCost: o.hashTime, parallelism: 1 })}`;
      // The domain folder is traversable; the mailbox itself belongs to the mail user only.
      await mkdir(path.dirname(home), { recursive: true, mode: 0o755 });
      await mkdir(home, { recursive: true, mode: 0o700 });
      if (process.getuid?.() === 0) await chown(home, o.uid, o.gid);
      await writeSieve(home, sieveScript(box.autoresponder ?? null, box.forward ?? null));
      const entry: PasswdEntry = { user, password, uid: o.uid, gid: o.gid, home, extra: quotaField(box.quota) };
      await updatePasswd((lines) => {
        const others = lines.filter((l) => !('entry' in l) || l.entry.user !== user);
        return [...others, { entry }];
      });
    },

    async removeMailbox(address: string) {
      const { local, domain } = mailAddress(address);
      const user = `${local}@${domain}`;
      await updatePasswd((lines) => lines.filter((l) => !('entry' in l) || l.entry.user !== user));
      if (o.purgeOnDelete) await rm(homeOf(user), { recursive: true, force: true });
    },

    async ensureAlias(alias: { address: string; targets: string[] }) {
      const key = aliasKey(alias.address);
      if (!alias.targets.length) throw new Error('an alias needs at least one target');
      const targets = alias.targets.map((t) => {
        const { local, domain } = mailAddress(t);
        return `${local}@${domain}`;
      });
      await updateAliases((map) => map.set(key, targets));
    },

    async removeAlias(address: string) {
      const key = aliasKey(address);
      await updateAliases((map) => map.delete(key));
    },

    /** Bytes on disk under each mailbox's home (what the quota counts), by address. */
    async usage(addresses: string[]) {
      const out: Record<string, number> = {};
      for (const address of addresses) {
        const home = homeOf(address);
        if (
          await stat(home).then(
            () => true,
            () => false,
          )
        )
          out[address] = await duBytes(home);
      }
      return out;
    },

    /** What the backend holds now (for reconcile). */
    async list() {
      const mailboxes = (await readEntries()).flatMap((l) =>
        'entry' in l ? [{ address: l.entry.user, quota: quotaOf(l.entry), home: l.entry.home }] : [],
      );
      const aliases = [...(await readMap(o.aliasMap))].map(([address, targets]) => ({ address, targets }));
      return { mailboxes, aliases };
    },
  };
}

/** Total size of the regular files under a directory, without following links. */
async function duBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await duBytes(full);
    else if (entry.isFile()) total += (await stat(full)).size;
  }
  return total;
}
