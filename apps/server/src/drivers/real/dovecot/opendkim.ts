import { chown, mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { DkimAlgorithm } from '../../../dkim.ts';
import type { DkimKeyEntry } from '../../mail/interface.ts';
import { readOrNull, withLock, writeAtomic } from '../common/files.ts';
import { hostName } from '../common/names.ts';
import { runChecked } from '../common/run.ts';
import type { DovecotOptions } from './options.ts';

const SELECTOR = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * OpenDKIM's KeyTable (`<selector>._domainkey.<domain> <domain>:<selector>:<key file>`) and
 * SigningTable (`refile:`, `*@<domain> <key name>`), one line per key, with the private keys in
 * `<dkimDir>/keys` (0640, OpenDKIM's group). A domain's lines are replaced as a whole and OpenDKIM
 * is told to reload, since it reads its tables at start.
 *
 * OpenDKIM 2.11 signs every key of an instance with its one `SignatureAlgorithm` (an Ed25519 key
 * under rsa-sha256 defers the mail), so each algorithm has an instance and tables of its own:
 * `KeyTable`/`SigningTable` for the RSA instance, `KeyTable.ed25519`/`SigningTable.ed25519` for
 * the Ed25519 one, written only where the operator runs it (`dkimSignEd25519`). Postfix passes the
 * message through both, and it leaves with two signatures (RFC 8463).
 */
export function openDkimTables(o: DovecotOptions) {
  const tables = {
    rsa: { key: path.join(o.dkimDir, 'KeyTable'), signing: path.join(o.dkimDir, 'SigningTable'), reload: o.dkimReload },
    ed25519: {
      key: path.join(o.dkimDir, 'KeyTable.ed25519'),
      signing: path.join(o.dkimDir, 'SigningTable.ed25519'),
      reload: o.dkimReloadEd25519,
    },
  };
  const instances: DkimAlgorithm[] = o.dkimSignEd25519 ? ['rsa', 'ed25519'] : ['rsa'];
  const keyFile = (domain: string, selector: string) => path.join(o.dkimDir, 'keys', `${domain}.${selector}.private`);
  const domainOf = (line: string, table: 'key' | 'signing') =>
    table === 'key' ? line.split(/\s+/)[1]?.split(':')[0] : line.split(/\s+/)[0]?.replace(/^\*@/, '');

  async function replaceLines(file: string, table: 'key' | 'signing', domain: string, lines: string[]) {
    const kept = ((await readOrNull(file))?.toString('utf8') ?? '').split('\n').filter((l) => l.trim() && domainOf(l, table) !== domain);
    await writeAtomic(file, [...kept, ...lines].map((l) => `${l}\n`).join(''), 0o644);
  }

  async function apply(domain: string, keys: DkimKeyEntry[]) {
    await withLock(`${tables.rsa.key}.lock`, async () => {
      // OpenDKIM drops to its own user before it reads a key: the folder is its group's to enter.
      await mkdir(path.join(o.dkimDir, 'keys'), { recursive: true, mode: 0o750 });
      if (o.dkimGroup !== undefined && process.getuid?.() === 0) await chown(path.join(o.dkimDir, 'keys'), 0, o.dkimGroup);
      const held = new Set(keys.map((k) => keyFile(domain, k.selector)));
      for (const key of keys) await writeAtomic(keyFile(domain, key.selector), key.privateKeyPem, 0o640, o.dkimGroup);
      for (const algorithm of instances) {
        const own = keys.filter((k) => k.algorithm === algorithm);
        await replaceLines(
          tables[algorithm].key,
          'key',
          domain,
          own.map((k) => `${k.selector}._domainkey.${domain} ${domain}:${k.selector}:${keyFile(domain, k.selector)}`),
        );
        await replaceLines(
          tables[algorithm].signing,
          'signing',
          domain,
          own.filter((k) => k.sign).map((k) => `*@${domain} ${k.selector}._domainkey.${domain}`),
        );
      }
      // Keys of this domain no longer listed (a rotated-out selector) leave the disk too; a
      // selector has no dot, so another domain's files (`sub.<domain>.…`) never match.
      for (const name of await readdir(path.join(o.dkimDir, 'keys'))) {
        const full = path.join(o.dkimDir, 'keys', name);
        const selector =
          name.startsWith(`${domain}.`) && name.endsWith('.private') ? name.slice(domain.length + 1, -'.private'.length) : '';
        if (SELECTOR.test(selector) && !held.has(full)) await rm(full, { force: true });
      }
    });
    for (const algorithm of instances) {
      const reload = tables[algorithm].reload;
      if (reload.length) await runChecked(reload[0]!, reload.slice(1));
    }
  }

  return {
    async ensure(domain: string, keys: DkimKeyEntry[]) {
      const name = hostName(domain);
      for (const key of keys) if (!SELECTOR.test(key.selector)) throw new Error(`invalid DKIM selector: ${JSON.stringify(key.selector)}`);
      await apply(name, keys);
    },
  };
}
