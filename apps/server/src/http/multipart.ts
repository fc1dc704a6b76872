import type { IncomingMessage } from 'node:http';
import { Busboy, type BusboyHeaders, type BusboyInstance } from '@fastify/busboy';
import type { FastifyRequest } from 'fastify';
import { ApiError } from './errors.ts';
import { normaliseFields } from './forms.ts';

/** What one form may hold: the panel's files are certificates and keys, its fields short texts. */
const MULTIPART_LIMITS = { fileSize: 64 * 1024, files: 5, fields: 100, fieldSize: 64 * 1024 };

/**
 * The content-type parser of `multipart/form-data`: reads the whole form into the same fields as a
 * URL-encoded body, files as text, before validation runs. A plugin that hands out parts as
 * streams costs every request of the server, forms or not, two hooks and a listener (decision 024);
 * this parser runs only for a form.
 *
 * A form over the body limit or over any of `MULTIPART_LIMITS` is refused whole with 413: nothing
 * is cut short and then saved. A body the parser cannot read (no boundary, truncated, a broken
 * part header) is the client's fault: 400, never a 500.
 */
export function multipartParser(bodyLimit: number) {
  return (_request: FastifyRequest, payload: IncomingMessage, done: (error: Error | null, body?: unknown) => void) => {
    let settled = false;
    const settle = (error: Error | null, body?: unknown) => {
      if (settled) return;
      settled = true;
      if (error) payload.unpipe();
      done(error, body);
    };
    const tooLarge = () => settle(new ApiError(413, 'main.too_large'));
    const malformed = () => settle(new ApiError(400, 'main.malformed_body'));
    if (Number(payload.headers['content-length']) > bodyLimit) return tooLarge();

    let parser: BusboyInstance;
    try {
      parser = Busboy({ headers: payload.headers as BusboyHeaders, limits: MULTIPART_LIMITS });
    } catch {
      return malformed();
    }
    const entries: [string, string][] = [];
    let filesReading = 0;
    let parsed = false;
    const finishWhenRead = () => {
      if (parsed && filesReading === 0) settle(null, normaliseFields(entries));
    };

    parser.on('field', (name, value, nameTruncated, valueTruncated) => {
      if (nameTruncated || valueTruncated) return tooLarge();
      entries.push([name, value]);
    });
    parser.on('file', (name, file) => {
      filesReading++;
      const chunks: Buffer[] = [];
      file.on('data', (chunk: Buffer) => chunks.push(chunk));
      file.on('limit', tooLarge);
      // A part cut short by the end of the body: unheard, this error would end the process.
      file.on('error', malformed);
      file.on('end', () => {
        filesReading--;
        entries.push([name, Buffer.concat(chunks).toString('utf8')]);
        finishWhenRead();
      });
    });
    parser.on('filesLimit', tooLarge);
    parser.on('fieldsLimit', tooLarge);
    parser.on('error', malformed);
    parser.on('finish', () => {
      parsed = true;
      finishWhenRead();
    });

    let bytes = 0;
    payload.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > bodyLimit) tooLarge();
    });
    payload.on('error', malformed);
    payload.pipe(parser);
  };
}
