import { endpoints, envelopeSchema } from '@atalaya/contract';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { envelope } from './envelope.ts';
import { routeOptions } from './route.ts';
import { answerSerializer, frozen } from './serializer.ts';

/** A route's writer for data of one declared field, counting how often that field is checked. */
function writer() {
  const counted = { checks: 0 };
  const data = z.object({ name: z.string().refine(() => ++counted.checks > 0) });
  const route = { schema: envelopeSchema(data), method: 'GET', url: '/p247/test/' };
  return { counted, write: answerSerializer(route), plain: serializerCompiler(route) };
}

describe('answerSerializer', () => {
  it('checks and writes a frozen answer’s data once, and answers the same text while the same object is sent', () => {
    const { counted, write, plain } = writer();
    const data = Object.freeze({ name: 'ana' });
    const first = write(envelope(data));
    expect(write(envelope(data))).toBe(first);
    expect(counted.checks).toBe(1);
    expect(first).toBe(plain(envelope(data)));
  });

  it('checks and writes an answer that is not frozen every time', () => {
    const { counted, write } = writer();
    const data = { name: 'ana' };
    write(envelope(data));
    data.name = 'eva';
    expect(JSON.parse(write(envelope(data))).data.name).toBe('eva');
    expect(counted.checks).toBe(2);
  });

  it('writes the system part anew for each answer of the same frozen data', () => {
    const { write } = writer();
    const data = Object.freeze({ name: 'ana' });
    write(envelope(data));
    const again = JSON.parse(write(envelope(data, { info: ['Guardado'] })));
    expect(again.system.info).toEqual(['Guardado']);
    expect(again.data).toEqual({ name: 'ana' });
  });

  it('checks and writes the system part of a plain success once, whatever data it comes with', () => {
    const { write, plain } = writer();
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      expect(write(envelope({ name: 'ana' }))).toBe(plain(envelope({ name: 'ana' })));
      expect(JSON.parse(write(envelope({ name: 'eva' }))).data.name).toBe('eva');
      const systemWrites = stringify.mock.calls.filter(([value]) => value && typeof value === 'object' && 'mlcVer' in value);
      expect(systemWrites).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
    expect(Object.isFrozen(envelope(null).system)).toBe(true);
    expect(Object.isFrozen(envelope(null, { info: ['Guardado'] }).system)).toBe(false);
  });

  it('leaves out the fields a frozen answer has beyond its schema', () => {
    const { write } = writer();
    const data = Object.freeze({ name: 'ana', authSealed: 'secret' });
    expect(write(envelope(data))).not.toContain('secret');
    expect(write(envelope(data))).not.toContain('secret');
  });

  it('refuses a frozen answer that breaks its schema, every time it is sent', () => {
    const { write } = writer();
    const data = Object.freeze({ name: 7 });
    expect(() => write(envelope(data))).toThrow();
    expect(() => write(envelope(data))).toThrow();
  });

  it('takes the envelope apart as the endpoint table declares it, so a kept answer is written once', () => {
    const options = routeOptions(endpoints.account.info);
    const schema = (options.schema as { response: Record<number, z.ZodType> }).response[200];
    const write = answerSerializer({ schema, method: options.method as string, url: options.url });
    const data = Object.freeze({
      ...{ id: 1, user: 'ana', name: 'Ana', email: '', domainName: 'ana.es', company: 'Atalaya', business: 'Atalaya' },
      ...{ tsLastLogin: null, ip: null, total_domain: 0, language: 'es', theme: 'light', color: '', canSetColor: false, mustEnrol: false },
    });
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      write(envelope(data));
      write(envelope(data));
      expect(stringify.mock.calls.filter(([value]) => value && typeof value === 'object' && 'domainName' in value)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it('freezes plain objects and arrays all the way down, and leaves what cannot be frozen as it is', () => {
    const value = frozen({ list: [{ name: 'ana' }], bytes: Buffer.from('ab'), when: new Date(0) });
    expect(Object.isFrozen(value) && Object.isFrozen(value.list) && Object.isFrozen(value.list[0])).toBe(true);
    expect(Object.isFrozen(value.bytes) || Object.isFrozen(value.when)).toBe(false);
  });
});
