import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Compile = typeof serializerCompiler;

/**
 * Answers are written from the endpoint table's schemas, so only the declared fields leave, each
 * checked (fastify-type-provider-zod). The envelope's two parts are written apart, and a part that
 * is frozen (what the auth cache keeps for many requests, `authCache.remember`; the system part of
 * a plain success, `envelope()`) is checked and written once, its text reused for as long as the
 * same object is answered: checking and writing a domain's answer cost more than the rest of its
 * request (decision 024).
 */
export const answerSerializer: Compile = (route) => {
  const { schema } = route;
  if (!(schema instanceof z.ZodObject) || !schema.shape.system || !schema.shape.data) return serializerCompiler(route);
  const system = writtenOncePerFrozen(serializerCompiler({ ...route, schema: schema.shape.system }));
  const data = writtenOncePerFrozen(serializerCompiler({ ...route, schema: schema.shape.data }));
  return (payload) => {
    const parts = payload as { system: unknown; data: unknown };
    return `{"system":${system(parts.system)},"data":${data(parts.data)}}`;
  };
};

/** `write`, with the text of each frozen object kept: a frozen value cannot change, so neither can its text. */
function writtenOncePerFrozen(write: (value: unknown) => string) {
  const written = new WeakMap<object, string>();
  return (value: unknown) => {
    if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return write(value);
    let text = written.get(value);
    if (text === undefined) {
      text = write(value);
      written.set(value, text);
    }
    return text;
  };
}

/**
 * Freezes a value and everything in it, so it can be shared by many requests and written once by
 * `answerSerializer`. Only plain objects and arrays: anything else (a Buffer, which cannot be
 * frozen, a Date) is left as it is, so a kept answer must not hold one that changes.
 */
export function frozen<T>(value: T): T {
  if (!isPlain(value) || Object.isFrozen(value)) return value;
  for (const inner of Object.values(value)) frozen(inner);
  return Object.freeze(value);
}

function isPlain(value: unknown): value is object {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}
