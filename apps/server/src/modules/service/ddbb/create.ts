import { databaseName } from '../../../drivers/databases/interface.ts';
import { now } from '../../../store/db.ts';
import type { ServiceContext } from '../context.ts';
import { insertChild } from '../jobs.ts';
import { isUniqueViolation } from '../../../store/errors.ts';

/**
 * Picks the service's first free name (prefix + reference + _n; the user takes the same name) and
 * writes the row with its job. Names are global on the server, so a race with another service
 * that took the same name just tries the next one.
 */
export async function createDatabase(ctx: ServiceContext, itemId: number, reference: string, password: string) {
  const prefix = ctx.drivers.databases.prefix;
  for (let attempt = 0; attempt < 5; attempt++) {
    let n = 1;
    while (await ctx.store.selectFrom('service_database').select('id').where('name', '=', databaseName(prefix, reference, n)).executeTakeFirst()) n++;
    const name = databaseName(prefix, reference, n);
    try {
      return await insertChild(ctx.store, 'service_database', itemId, { item_id: itemId, name, username: name, password_secret: ctx.secrets.encrypt(password), created_at: now() });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new Error('no free database name after 5 attempts');
}
