import { type SelectQueryBuilder, sql } from 'kysely';
import { FieldErrors, notFound } from '../../http/errors.ts';
import { pathId } from '../../http/ids.ts';
import { isUniqueViolation } from '../../store/errors.ts';

/** For `.catch` on an insert: a name another request has just taken (the unique index says so) is that field's 'name taken'. */
export const nameTakenAs = (input: string) => (error: unknown) => {
  throw isUniqueViolation(error) ? FieldErrors.one(input, 'service.name_taken') : error;
};

/**
 * One child row (mail account, alias, FTP user, database) of the service, by its path id, from the
 * area's own list query (`alias` names the child table in it); another service's id, or a row being
 * deleted, is not found.
 */
export async function liveChild<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>, alias: string, id: string): Promise<O> {
  const row = await query
    .where(sql.ref(`${alias}.id`), '=', pathId(id))
    .where(sql.ref(`${alias}.deleting`), '=', 0)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row as O;
}
