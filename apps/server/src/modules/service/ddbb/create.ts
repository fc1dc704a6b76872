import { databaseName } from '../../../drivers/databases/interface.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import { now } from '../../../store/db.ts';
import { isUniqueViolation } from '../../../store/errors.ts';
import { insertChild } from '../jobs.ts';

/**
 * Picks the service's first free name (prefix + reference + _id_n; the user takes the same name)
 * and writes the row with its job. The name carries the service's id, so only the service's own
 * databases compete for it; a race between two of its own requests just tries the next one.
 */
export async function createDatabase(runtime: Runtime, itemId: number, reference: string, password: string) {
  const prefix = runtime.drivers.databases.prefix;
  for (let attempt = 0; attempt < 5; attempt++) {
    let n = 1;
    while (
      await runtime.store
        .selectFrom('service_database')
        .select('id')
        .where('name', '=', databaseName(prefix, reference, itemId, n))
        .executeTakeFirst()
    )
      n++;
    const name = databaseName(prefix, reference, itemId, n);
    try {
      return await insertChild(runtime.store, 'service_database', itemId, {
        item_id: itemId,
        name,
        username: name,
        password_secret: runtime.secrets.encrypt(password),
        created_at: now(),
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('no free database name after 5 attempts');
}
