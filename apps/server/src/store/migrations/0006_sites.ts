import type { MigrationDb } from './helpers.ts';

/** The sites area's tables: subdomains with SSL, redirections, application catalogue and installations. */
export async function up(_db: MigrationDb, _kind: 'sqlite' | 'postgres') {}
