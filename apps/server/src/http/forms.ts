import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';

/**
 * Form bodies arrive URL-encoded or multipart. A field named `dns[]` is always an array under `dns`;
 * any other repeated field keeps its last value, so a schema never meets an unexpected array.
 */
export function normaliseFields(entries: Iterable<[string, unknown]>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [rawKey, raw] of entries) {
    // Multipart files (certificates) arrive as buffers; every field the panel takes is text.
    const value = Buffer.isBuffer(raw) ? raw.toString('utf8') : raw;
    if (rawKey === '__proto__' || rawKey === 'constructor' || rawKey === 'prototype') continue;
    if (rawKey.endsWith('[]')) {
      const key = rawKey.slice(0, -2);
      const list = Array.isArray(out[key]) ? (out[key] as unknown[]) : [];
      list.push(...(Array.isArray(value) ? value : [value]));
      out[key] = list;
    } else {
      out[rawKey] = Array.isArray(value) ? value.at(-1) : value;
    }
  }
  return out;
}

export const parseUrlEncoded = (body: string) => normaliseFields(new URLSearchParams(body));

/**
 * Reads a multipart body into the same fields as a URL-encoded one. A body the parser cannot read
 * (truncated, no boundary, a broken part header) is the client's fault: 400 in the envelope, never
 * a 500. The parser's own refusals keep their status (413 for the limits).
 */
export async function readMultipart(request: FastifyRequest): Promise<Record<string, unknown>> {
  const entries: [string, unknown][] = [];
  try {
    for await (const part of request.parts()) {
      entries.push([part.fieldname, part.type === 'file' ? await part.toBuffer() : part.value]);
    }
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) throw error;
    throw new ApiError(400, 'main.malformed_body');
  }
  return normaliseFields(entries);
}
