import type { MigrationDb } from './helpers.ts';

/** The account area's tables. */
export async function up(_db: MigrationDb, _kind: 'sqlite' | 'postgres') {}
