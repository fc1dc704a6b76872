import type { Config } from '../../config/config.ts';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import type { RegistryDriver } from './interface.ts';
import { createLocalRegistry } from './local.ts';

const drivers = new WeakMap<Store, RegistryDriver>();

/** The registry driver of a store (config `drivers.registry.driver`; only `local` exists so far). */
export function registryDriver(config: Config, store: Store, secrets: Secrets): RegistryDriver {
  let found = drivers.get(store);
  if (!found) {
    const name = config.drivers.registry?.driver ?? 'local';
    if (name !== 'local') throw new Error(`drivers.registry.driver: unknown driver "${String(name)}" (use local)`);
    found = createLocalRegistry(store, secrets);
    drivers.set(store, found);
  }
  return found;
}

/** The provider's own name servers (config `drivers.registry.nameServers`), used in default DNS mode. */
export function defaultNameServers(config: Config): string[] {
  const configured = config.drivers.registry?.nameServers;
  if (Array.isArray(configured) && configured.length >= 2 && configured.every((h) => typeof h === 'string')) return configured;
  return DEFAULT_NAME_SERVERS;
}

export const DEFAULT_NAME_SERVERS = ['ns1.example.net', 'ns2.example.net'];
