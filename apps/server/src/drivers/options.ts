import { z } from 'zod';
import { resticOptionsSchema } from './backups/options.ts';
import { mariaDbOptionsSchema } from './databases/mariadb-options.ts';
import { dnsOptionsSchema } from './dns/options.ts';
import { installerOptionsSchema } from './installer/options.ts';
import { dovecotOptionsSchema } from './real/dovecot/options.ts';
import { nginxOptionsSchema } from './real/nginx/options.ts';
import { pureFtpdOptionsSchema } from './real/pureftpd/pureftpd.ts';
import { eppOptionsSchema } from './registry/epp/options.ts';

/** A driver that takes no options: its state is in the panel's store. */
const NONE = z.strictObject({});

/**
 * Every driver by area and name with the options it takes (`drivers.<area>` without `driver`),
 * each by its own strict schema: the configuration refuses an area, a driver or an option not
 * listed here (config/drivers.ts), and the factory table (index.ts) must build exactly these.
 */
export const DRIVER_OPTIONS = {
  web: { local: NONE, nginx: nginxOptionsSchema },
  mail: { local: NONE, dovecot: dovecotOptionsSchema },
  ftp: { local: NONE, pureftpd: pureFtpdOptionsSchema },
  databases: { local: NONE, mariadb: mariaDbOptionsSchema },
  // The zone template, name servers and addresses serve the local driver's zones as well.
  dns: { local: dnsOptionsSchema, powerdns: dnsOptionsSchema },
  sites: { local: NONE, nginx: nginxOptionsSchema },
  installer: { local: installerOptionsSchema },
  // The provider's name servers are read whichever registry the panel uses (modules/domain/defaults.ts).
  registry: { local: eppOptionsSchema.pick({ nameServers: true }), epp: eppOptionsSchema },
  // Backups have no simulated driver: restic on a local repository is the embedded default.
  backups: { restic: resticOptionsSchema },
} satisfies Record<string, Record<string, z.ZodType>>;

export type DriverArea = keyof typeof DRIVER_OPTIONS;

/** The driver an area uses when `drivers.<area>.driver` is unset: the local one, but for areas that have none. */
export function defaultDriver(area: string): string {
  return area === 'backups' ? 'restic' : 'local';
}
