import { notFound } from './errors.ts';

/** Ids are 4-byte serials on PostgreSQL: anything else cannot exist, and must not reach a query. */
export const isStoredId = (id: number) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647;

/** A path id: a positive whole number that can exist, or the call answers 404 like any unknown id. */
export function pathId(value: string): number {
  const id = Number(value);
  if (!/^[1-9]\d{0,9}$/.test(value) || !isStoredId(id)) throw notFound();
  return id;
}
