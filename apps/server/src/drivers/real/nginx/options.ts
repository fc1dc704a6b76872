import path from 'node:path';
import { z } from 'zod';

const absolute = z.string().refine((p) => path.isAbsolute(p) && !p.includes('\0'), 'an absolute path');
const port = z.coerce.number().int().min(1).max(65535);

/**
 * `config.drivers.sites` / `config.drivers.web` options of the nginx driver. Both areas share one
 * backend (the vhost of a site depends on its service's PHP version and parking state), so an
 * operator sets the same object, or just `driver: "nginx"` in one and the options in the other.
 */
export const nginxOptionsSchema = z.strictObject({
  nginx: absolute.default('/usr/sbin/nginx'),
  /** The main nginx.conf, which must `include <sitesDir>/*.conf;` inside its http block. */
  confFile: absolute.default('/etc/nginx/nginx.conf'),
  /** nginx's -p prefix; unset uses nginx's compiled-in one. */
  prefix: absolute.optional(),
  /** Where the panel keeps everything it generates: sites/, certs/, pages/, state/. */
  baseDir: absolute.default('/etc/nginx/atalaya'),
  logDir: absolute.default('/var/log/nginx/atalaya'),
  /** The web root of a service; `{reference}` is replaced by the service's reference. */
  webRoot: z
    .string()
    .includes('{reference}')
    .refine((p) => path.isAbsolute(p), 'an absolute path')
    .default('/var/www/{reference}'),
  listenAddress: z
    .string()
    .regex(/^(\*|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])$/, 'an IPv4 address, [IPv6] or *')
    .default('*'),
  httpPort: port.default(80),
  httpsPort: port.default(443),
  /** PHP-FPM socket; `{version}` is replaced by the PHP version (e.g. 8.2). */
  phpSocket: z.string().default('/run/php/php{version}-fpm.sock'),
  /** The PHP version served when a service asks for "default". */
  defaultPhp: z
    .string()
    .regex(/^\d\.\d$/)
    .default('8.2'),
  /** Optional provider HTML for parking pages, with `{{host}}` placeholders. */
  parkingTemplate: absolute.optional(),
  /** Optional provider HTML for the suspension page, with `{{host}}` placeholders. */
  suspendedTemplate: absolute.optional(),
  /** The reload command as an argument array; default `nginx -s reload` with confFile and prefix. */
  reload: z.array(z.string().min(1)).min(1).optional(),
  timeoutMs: z.coerce.number().int().min(1000).default(30_000),
});

export type NginxOptions = z.infer<typeof nginxOptionsSchema>;

export function nginxOptions(raw: Record<string, unknown>): NginxOptions {
  const parsed = nginxOptionsSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`nginx driver options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  }
  return parsed.data;
}
