import { type AccountSpec, send } from '../fixtures.ts';
import type { TestContext } from '../stores.ts';

/** A multipart body with text fields and files (certificates are uploaded as files by the SPA). */
export function multipart(fields: Record<string, string>, files: Record<string, string> = {}) {
  const boundary = `----atalaya${Math.random().toString(16).slice(2)}`;
  const parts: string[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  }
  for (const [name, value] of Object.entries(files)) {
    parts.push(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.pem"\r\nContent-Type: application/x-pem-file\r\n\r\n${value}\r\n`,
    );
  }
  parts.push(`--${boundary}--\r\n`);
  return { payload: parts.join(''), contentType: `multipart/form-data; boundary=${boundary}` };
}

export type Headers = Record<string, string>;

/** Small wrappers over app.inject that answer the status and the parsed envelope. */
export function caller(ctx: () => TestContext) {
  return {
    get: (url: string, headers: Headers) => send(ctx().app, 'GET', url, headers),
    post: (url: string, headers: Headers, body: Record<string, string>) => send(ctx().app, 'POST', url, headers, body),
    async upload(url: string, headers: Headers, fields: Record<string, string>, files: Record<string, string>) {
      const { payload, contentType } = multipart(fields, files);
      const response = await ctx().app.inject({
        method: 'POST',
        url: `/p247${url}`,
        headers: { ...headers, 'content-type': contentType },
        payload,
      });
      return { status: response.statusCode, body: response.json() };
    },
  };
}

/** The items the sites suites work on: two hosting services of one realm and a parked one. */
export const SITES_ITEMS: AccountSpec['items'] = [
  { reference: 'tienda.test', service: 'normal' },
  { reference: 'otra.test', service: 'normal' },
  { reference: 'aparcado.test', service: 'parking' },
];
