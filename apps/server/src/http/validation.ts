import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import { fromZod } from './errors.ts';

/** Route schemas are zod; a failure becomes the envelope's paired field errors. */
export const zodValidator: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    return result.success ? { value: result.data } : { error: fromZod(result.error) };
  };
