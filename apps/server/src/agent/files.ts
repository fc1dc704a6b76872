import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { Config } from '../config/config.ts';
import type { BackupDriver, BackupRepository, StoredPart } from '../drivers/backups/interface.ts';
import type { DatabaseDriver } from '../drivers/databases/interface.ts';
import { localWebRoots } from '../drivers/index.ts';
import { hostName, mailAddress, resolveInside } from '../drivers/real/common/names.ts';
import { dovecotOptions } from '../drivers/real/dovecot/options.ts';
import { CHUNK_BYTES, type ServicePart } from '../nodes/protocol.ts';
import { PermanentJobError } from '../outbox/permanent.ts';

const run = promisify(execFile);

const SPOOL_ID = /^[a-f0-9]{32}$/;

/**
 * The agent's `transfer` area (decision 047): a part is packed into a tar file in the agent's
 * spool, read in chunks by the panel, written chunk by chunk into the other node's spool and
 * unpacked there; `remove` deletes a part from the node it has left. The panel has one of its own
 * for a service that leaves its machine for a node.
 */
export function nodeFiles(config: Config, stateDir: string, drivers: Record<string, unknown> = {}) {
  const databases = drivers.databases as DatabaseDriver | undefined;
  const backups = drivers.backups as BackupDriver | undefined;
  const needDatabases = () => {
    if (!databases) throw new PermanentJobError('this node has no database driver configured (drivers.databases.driver)');
    return databases;
  };
  const spool = path.join(stateDir, 'spool');
  const webRoot = localWebRoots(config);
  const mailRoot = dovecotOptions(Object.fromEntries(Object.entries(config.drivers.mail ?? {}).filter(([k]) => k !== 'driver'))).mailRoot;

  function folderOf(part: ServicePart) {
    if (part?.kind === 'web') return resolveInside(webRoot, hostName(String(part.reference)));
    if (part?.kind === 'mail') {
      const { local, domain } = mailAddress(String(part.address));
      return resolveInside(mailRoot, path.join(domain, local));
    }
    throw new PermanentJobError('unknown part of a service');
  }
  function spoolFile(id: string) {
    if (!SPOOL_ID.test(String(id))) throw new PermanentJobError('bad spool id');
    return path.join(spool, `${id}.tar`);
  }

  return {
    /** Packs a part; `id` null when the node holds nothing of it. */
    async pack(part: ServicePart) {
      const folder = folderOf(part);
      if (!existsSync(folder)) return { id: null, size: 0 };
      await mkdir(spool, { recursive: true, mode: 0o700 });
      const id = randomBytes(16).toString('hex');
      // Numeric owners and modes kept: the daemons of the other node read the files as here.
      await run('tar', ['--numeric-owner', '-cpf', spoolFile(id), '-C', folder, '.']);
      return { id, size: (await stat(spoolFile(id))).size };
    },
    async read(id: string, offset: number) {
      const file = await open(spoolFile(id), 'r');
      try {
        const buffer = Buffer.alloc(CHUNK_BYTES);
        const { bytesRead } = await file.read(buffer, 0, CHUNK_BYTES, Number(offset));
        return buffer.subarray(0, bytesRead).toString('base64');
      } finally {
        await file.close();
      }
    },
    async write(id: string, offset: number, data: string) {
      await mkdir(spool, { recursive: true, mode: 0o700 });
      const file = await open(spoolFile(id), Number(offset) === 0 ? 'w' : 'r+', 0o600);
      try {
        await file.write(Buffer.from(String(data), 'base64'), 0, undefined, Number(offset));
      } finally {
        await file.close();
      }
    },
    /** Replaces the part's folder with the archive's content (a retried move starts it again). */
    async unpack(id: string, part: ServicePart) {
      const folder = folderOf(part);
      await rm(folder, { recursive: true, force: true });
      await mkdir(folder, { recursive: true, mode: 0o755 });
      await run('tar', ['--numeric-owner', '-xpf', spoolFile(id), '-C', folder]);
      await rm(spoolFile(id), { force: true });
    },
    drop: (id: string) => rm(spoolFile(id), { force: true }),
    /** A database's dump, written to the spool for the panel to read (a customer's download, a move). */
    async dump(name: string) {
      const source = await needDatabases().dump(String(name));
      await mkdir(spool, { recursive: true, mode: 0o700 });
      const id = randomBytes(16).toString('hex');
      await pipeline(source, createWriteStream(spoolFile(id), { mode: 0o600 }));
      return { id, size: (await stat(spoolFile(id))).size };
    },
    /** A file or folder of a backup as its .tar.gz, written to the spool for the panel to read (restic runs here, next to the repository). */
    async backupDownload(repo: BackupRepository, parts: StoredPart[], treePath: string) {
      if (!backups) throw new PermanentJobError('this node has no backups driver');
      const source = await backups.download(repo, parts, String(treePath));
      await mkdir(spool, { recursive: true, mode: 0o700 });
      const id = randomBytes(16).toString('hex');
      await pipeline(source, createWriteStream(spoolFile(id), { mode: 0o600 }));
      return { id, size: (await stat(spoolFile(id))).size };
    },
    /** Loads a dump the panel wrote into the spool into the database of that name. */
    async restore(id: string, name: string) {
      await needDatabases().restore(String(name), createReadStream(spoolFile(id)));
      await rm(spoolFile(id), { force: true });
    },
    remove: (part: ServicePart) => rm(folderOf(part), { recursive: true, force: true }),
  };
}
