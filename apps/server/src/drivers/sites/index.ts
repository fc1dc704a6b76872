import type { Config } from '../../config/config.ts';
import { localInstaller } from './installer-local.ts';
import type { ApplicationInstaller, SitesDriver } from './interface.ts';
import { localSitesDriver } from './local.ts';
import { nginxSitesDriver } from '../real/adapters.ts';

/**
 * The sites driver the operator chose in `drivers.sites.kind` (default `local`). A real one (nginx)
 * adds its case here and reads its own settings from `config.drivers.sites`.
 */
export function createSitesDriver(config: Config): SitesDriver {
  const kind = config.drivers.sites?.kind ?? 'local';
  if (kind === 'local') return localSitesDriver(config.dataDir);
  if (kind === 'nginx') return nginxSitesDriver(config);
  throw new Error(`drivers.sites.kind: unknown driver "${String(kind)}"`);
}

/** The application installer (`drivers.installer.kind`, default `local`: files in the local web root). */
export function createInstaller(config: Config): ApplicationInstaller {
  const kind = config.drivers.installer?.kind ?? 'local';
  if (kind === 'local') return localInstaller(config.dataDir);
  throw new Error(`drivers.installer.kind: unknown installer "${String(kind)}"`);
}
