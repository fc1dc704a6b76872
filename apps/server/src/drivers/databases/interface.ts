import type { Readable } from 'node:stream';

/** A customer database and its one user (same name), as a database server is told. */
export interface DatabaseSpec {
  name: string;
  user: string;
  password: string;
  /** true: the user may connect from any host ('%'); false: only from the server itself. */
  externalAccess: boolean;
}

export interface DatabaseDriver {
  /** Prepended to every generated name, so several panels (or test runs) can share one server. */
  readonly prefix: string;
  /** Creates or updates database, user, password, grants and host (idempotent: safe to retry). */
  ensure(db: DatabaseSpec): Promise<void>;
  /** Drops the user (every host) and the database; nothing left is not an error. */
  remove(db: { name: string; user: string }): Promise<void>;
  /** An SQL dump; rejects before any byte is sent when the server cannot produce it. */
  dump(name: string): Promise<Readable>;
  /** Loads a dump of `name` (as `dump` writes it) into the database of that name, which `ensure` made. */
  restore(name: string, sql: Readable): Promise<void>;
  /** Bytes each database takes (data and indexes), by name; a database the server lacks is left out. */
  sizes(names: string[]): Promise<Record<string, number>>;
}

/**
 * A valid, readable name for a service's nth database: prefix + the reference's letters and digits
 * + "_<service id>_n", at most 32 characters (MariaDB's user-name limit; the database takes the
 * same name). The service's id makes the name its own: two references that read alike
 * (`my-shop.es`, `my.shop.es`, long ones cut short) never compete for a name, so no customer's
 * numbering shows that another customer has a database.
 */
export function databaseName(prefix: string, reference: string, serviceId: number, n: number): string {
  const suffix = `_${serviceId}_${n}`;
  const room = Math.max(1, 32 - prefix.length - suffix.length);
  const base =
    reference
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, room)
      .replace(/_+$/, '') || 'db';
  return `${prefix}${base}${suffix}`;
}

export const DATABASE_NAME = /^[a-z0-9_]{1,32}$/;
