import { z } from 'zod';

/** `config.drivers.databases` options of the mariadb driver. */
export const mariaDbOptionsSchema = z.strictObject({
  /** An admin account, e.g. mysql://root@127.0.0.1:3306 */
  dsn: z.string().regex(/^(mysql|mariadb):\/\//, 'a mysql:// URL of an admin account, e.g. mysql://root@127.0.0.1:3306'),
  /** Put before every database and user name the panel makes. */
  prefix: z.string().default(''),
  /** Hosts of a user without external access; with skip-name-resolve, TCP from the server itself is 127.0.0.1. */
  localHosts: z.array(z.string().min(1)).min(1).optional(),
  /** The dump program; `mariadb-dump` on PATH by default. */
  dumpCommand: z.string().min(1).optional(),
  /** The client a dump is loaded with; `mariadb` on PATH by default. */
  clientCommand: z.string().min(1).optional(),
});

export type MariaDbOptions = z.infer<typeof mariaDbOptionsSchema>;
