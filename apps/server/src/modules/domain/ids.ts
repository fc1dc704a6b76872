import { notFound } from '../../http/errors.ts';

/** A path id: a positive whole number, or the call answers 404 like any unknown id. */
export function pathId(value: string): number {
  if (!/^[1-9]\d{0,14}$/.test(value)) throw notFound();
  return Number(value);
}
