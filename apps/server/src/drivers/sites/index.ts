import path from 'node:path';
import type { Config } from '../../config/config.ts';
import { localInstaller } from './installer-local.ts';
import type { ApplicationInstaller, SitesDriver } from './interface.ts';
import { localSitesDriver } from './local.ts';
import { nginxSitesDriver } from '../real/adapters.ts';

/**
 * The sites driver the operator chose in `drivers.sites.driver` (default `local`). A real one (nginx)
 * adds its case here and reads its own settings from `config.drivers.sites`.
 */
export function createSitesDriver(config: Config): SitesDriver {
  const kind = config.drivers.sites?.driver ?? 'local';
  if (kind === 'local') return localSitesDriver(config.dataDir);
  if (kind === 'nginx') return nginxSitesDriver(config);
  throw new Error(`drivers.sites.driver: unknown driver "${String(kind)}"`);
}

/**
 * The application installer (`drivers.installer.driver`, default `local`: writes the files itself).
 * It writes where the sites driver serves from: the data dir's `www/` for the local driver, the
 * provider's `hosting.webRoot` when a real web server is configured.
 */
export function createInstaller(config: Config): ApplicationInstaller {
  const kind = config.drivers.installer?.driver ?? 'local';
  const sitesKind = config.drivers.sites?.driver ?? 'local';
  if (kind === 'local') return localInstaller(sitesKind === 'local' ? path.join(config.dataDir, 'www') : config.hosting.webRoot);
  throw new Error(`drivers.installer.driver: unknown installer "${String(kind)}"`);
}
