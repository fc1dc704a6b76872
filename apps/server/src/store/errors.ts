/** A unique-constraint violation on either store (a race on a name), to answer a field error instead of a 500. */
export const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; message?: string } | null;
  return e?.code === '23505' || /UNIQUE constraint failed|duplicate key value/i.test(e?.message ?? '');
};
