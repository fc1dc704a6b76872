import type { MigrationDb } from './helpers.ts';

/** The domain area's tables. */
export async function up(_db: MigrationDb, _kind: 'sqlite' | 'postgres') {}
