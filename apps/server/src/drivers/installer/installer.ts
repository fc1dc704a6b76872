import { lstat, mkdir, mkdtemp, readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { resolveInside } from '../real/common/names.ts';
import { unpackArchive } from './archive.ts';
import { type ApplicationInstaller, InstallRefused } from './interface.ts';
import type { InstallerOptions } from './options.ts';
import { fetchPackage } from './package.ts';
import { checkTablesFree, dropTables, runWordpressInstaller, wordpressConfig } from './recipes/wordpress.ts';

/** Names of the installer's own working folders inside a service's web root. */
const WORK_PREFIX = '.atalaya-install-';
const isWorkFolder = (name: string) => name.startsWith(WORK_PREFIX);

/** What a folder holds, the installer's own working folders aside; [] when it does not exist yet. */
async function contentOf(dir: string): Promise<string[]> {
  const info = await lstat(dir).catch(() => null);
  if (!info) return [];
  if (!info.isDirectory()) throw new InstallRefused('sites.install_not_empty');
  return (await readdir(dir)).filter((n) => !isWorkFolder(n));
}

/**
 * Puts the unpacked application in place: what the target held (only with `overwrite`) moves
 * aside, the new entries move in, one rename each; any failure puts everything back as it was.
 */
async function swapIn(staging: string, target: string, aside: string, overwrite: boolean) {
  const created = await mkdir(target, { recursive: true, mode: 0o755 });
  const old = await contentOf(target);
  if (old.length > 0 && !overwrite) throw new InstallRefused('sites.install_not_empty');
  const movedAside: string[] = [];
  const placed: string[] = [];
  try {
    if (old.length > 0) await mkdir(aside, { mode: 0o700 });
    for (const name of old) {
      await rename(path.join(target, name), path.join(aside, name));
      movedAside.push(name);
    }
    for (const name of await readdir(staging)) {
      await rename(path.join(staging, name), path.join(target, name));
      placed.push(name);
    }
  } catch (error) {
    for (const name of placed) await rm(path.join(target, name), { recursive: true, force: true });
    for (const name of movedAside) await rename(path.join(aside, name), path.join(target, name));
    if (created) await rm(created, { recursive: true, force: true });
    throw error;
  }
  await rm(aside, { recursive: true, force: true });
}

/**
 * The installer of real packages (decision 026). Each step writes only into folders of its own
 * (a scratch folder for the package, a working folder beside the target for the files) until the
 * last one swaps the files in; a step that fails removes them, and the tables its application's
 * installer created.
 */
export function packageInstaller(webRoots: string, options: InstallerOptions): ApplicationInstaller {
  return {
    name: 'packages',
    async install(request, progress, signal) {
      const serviceRoot = resolveInside(path.resolve(webRoots), request.reference);
      await mkdir(serviceRoot, { recursive: true, mode: 0o755 });
      if (request.directory.split('/').some(isWorkFolder)) throw new InstallRefused('sites.folder_invalid');
      const target = resolveInside(serviceRoot, request.directory);
      if ((await contentOf(target)).length > 0 && !request.overwrite) throw new InstallRefused('sites.install_not_empty');
      const staging = path.join(serviceRoot, `${WORK_PREFIX}${request.installationId}`);
      const aside = `${staging}-replaced`;
      // A crash of an earlier attempt may have left them; they are the installer's by their names.
      await rm(staging, { recursive: true, force: true });
      await rm(aside, { recursive: true, force: true });
      await mkdir(staging, { mode: 0o755 });
      const scratch = await mkdtemp(path.join(os.tmpdir(), 'atalaya-package-'));
      let tablesWritten = false;
      const runsItsInstaller = request.application.recipe === 'wordpress' && options.php !== undefined;
      try {
        // Refused before anything is fetched: tables with the prefix would be the customer's.
        if (runsItsInstaller) await checkTablesFree(request);
        await progress(5);
        const archive = path.join(scratch, 'package');
        await fetchPackage(request.package, archive, options.maxPackageBytes, options.downloadTimeoutMs, signal);
        await progress(25);
        await unpackArchive(
          archive,
          staging,
          request.application.archiveRoot,
          {
            maxEntries: options.maxEntries,
            maxBytes: options.maxUnpackedBytes,
          },
          signal,
        );
        await progress(55);
        if (request.application.recipe === 'wordpress') {
          await writeFile(path.join(staging, 'wp-config.php'), wordpressConfig(request), { mode: 0o640 });
          await progress(65);
          if (runsItsInstaller) {
            tablesWritten = true;
            await runWordpressInstaller(request, staging, options.php!, scratch, signal);
            await progress(85);
          }
        }
        signal?.throwIfAborted();
        await swapIn(staging, target, aside, request.overwrite);
        await progress(100);
      } catch (error) {
        if (tablesWritten) await dropTables(request).catch(() => {});
        throw error;
      } finally {
        await rm(staging, { recursive: true, force: true });
        await rm(scratch, { recursive: true, force: true });
      }
    },
  };
}
