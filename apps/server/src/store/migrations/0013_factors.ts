import { sql } from 'kysely';
import { type MigrationDb, withId } from './helpers.ts';

/**
 * Second factors (decision 021): TOTP secrets (sealed) and passkeys per user, recovery codes
 * (hashed), and a realm's requirement of a second factor. Adding or removing a factor bumps
 * `auth_version`, since whether a user must still enrol is part of the cached session.
 */
export async function up(db: MigrationDb, kind: 'sqlite' | 'postgres') {
  await db.schema
    .alterTable('realm')
    .addColumn('require_second_factor', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await withId(db.schema.createTable('second_factor'), kind)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    // TOTP: the sealed secret and the last time step accepted (a code is good once).
    .addColumn('secret', 'text')
    .addColumn('last_step', 'bigint', (c) => c.notNull().defaultTo(0))
    // Passkey: the credential id (base64url), its public key (base64url COSE) and signature counter.
    .addColumn('credential_id', 'text', (c) => c.unique())
    .addColumn('public_key', 'text')
    .addColumn('sign_count', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_used_at', 'bigint')
    .execute();
  await db.schema.createIndex('second_factor_user').on('second_factor').column('user_id').execute();
  await withId(db.schema.createTable('recovery_code'), kind)
    .addColumn('user_id', 'integer', (c) => c.notNull().references('user.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('recovery_code_user').on('recovery_code').column('user_id').execute();

  const bump = 'UPDATE auth_version SET version = version + 1 WHERE id = 1';
  if (kind === 'postgres') {
    await sql
      .raw(
        'CREATE TRIGGER auth_version_second_factor AFTER INSERT OR DELETE ON second_factor FOR EACH STATEMENT EXECUTE FUNCTION bump_auth_version()',
      )
      .execute(db);
  } else {
    for (const event of ['insert', 'delete']) {
      await sql
        .raw(`CREATE TRIGGER auth_version_second_factor_${event} AFTER ${event.toUpperCase()} ON second_factor BEGIN ${bump}; END`)
        .execute(db);
    }
  }
}
