import { serializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Compile = typeof serializerCompiler;

/**
 * Answers are written from the endpoint table's schemas, so only the declared fields leave, each
 * checked (fastify-type-provider-zod). An envelope whose data is frozen (what the auth cache keeps
 * for many requests: `authCache.remember`) has its data checked and written once, and that text
 * reused for as long as the same object is answered: checking and writing a domain's answer cost
 * more than the rest of its request (decision 024). Only the envelope's `system` part is written
 * each time.
 */
export const answerSerializer: Compile = (route) => {
  const whole = serializerCompiler(route);
  const { schema } = route;
  if (!(schema instanceof z.ZodObject) || !schema.shape.system || !schema.shape.data) return whole;
  const system = serializerCompiler({ ...route, schema: schema.shape.system });
  const data = serializerCompiler({ ...route, schema: schema.shape.data });
  const written = new WeakMap<object, string>();
  return (payload) => {
    const { data: value } = payload as { data: unknown };
    if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return whole(payload);
    let text = written.get(value);
    if (text === undefined) {
      text = data(value);
      written.set(value, text);
    }
    return `{"system":${system((payload as { system: unknown }).system)},"data":${text}}`;
  };
};

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
