import { quotePath } from './syntax.ts';

/** One host, already validated and resolved to absolute paths: everything render needs. */
export interface Vhost {
  key: string;
  host: string;
  reference: string;
  /** Document root, or null when the host has no content of its own. */
  root: string | null;
  /** PHP-FPM socket of the service's PHP version; null serves .php files as plain files are not. */
  phpSocket: string | null;
  /** Serve the parking page where no redirection applies. */
  parking: boolean;
  /** Suspended by the operator: every path but the ACME answers is the suspension page, with 503. */
  suspended: boolean;
  /** Serves the pages directory's mta-sts.txt at exactly /.well-known/mta-sts.txt, and nothing else. */
  mtaSts: boolean;
  tls: { certFile: string; keyFile: string } | null;
  /** Directory of this host's generated pages (parking.html, frame-<id>.html). */
  pagesDir: string;
  /** Directory of this host's HTTP-01 answers, served under /.well-known/acme-challenge/. */
  acmeDir: string;
  redirections: { id: number; origin: string; kind: '301' | '302' | 'frame'; target: string }[];
  logDir: string;
  listen: { address: string; http: number; https: number };
}

const FASTCGI_PARAMS = [
  ['SCRIPT_FILENAME', '$document_root$fastcgi_script_name'],
  ['SCRIPT_NAME', '$fastcgi_script_name'],
  ['QUERY_STRING', '$query_string'],
  ['REQUEST_METHOD', '$request_method'],
  ['CONTENT_TYPE', '$content_type'],
  ['CONTENT_LENGTH', '$content_length'],
  ['REQUEST_URI', '$request_uri'],
  ['DOCUMENT_URI', '$document_uri'],
  ['DOCUMENT_ROOT', '$document_root'],
  ['SERVER_PROTOCOL', '$server_protocol'],
  ['REQUEST_SCHEME', '$scheme'],
  ['HTTPS', '$https if_not_empty'],
  ['GATEWAY_INTERFACE', 'CGI/1.1'],
  ['REMOTE_ADDR', '$remote_addr'],
  ['REMOTE_PORT', '$remote_port'],
  ['SERVER_ADDR', '$server_addr'],
  ['SERVER_PORT', '$server_port'],
  ['SERVER_NAME', '$server_name'],
  ['REDIRECT_STATUS', '200'],
];

/** A page of this host's pages directory, served for the matched location. */
const page = (v: Vhost, file: string) => [`root ${quotePath(v.pagesDir)};`, 'default_type text/html;', `try_files /${file} =404;`];

function redirectionBlocks(v: Vhost): string[] {
  const out: string[] = [];
  for (const r of v.redirections) {
    const body = r.kind === 'frame' ? page(v, `frame-${r.id}.html`) : [`return ${r.kind} "${r.target}";`];
    // '/x' covers the path itself and everything under it; '/' the whole host.
    const matches = r.origin === '/' ? ['/'] : [`= ${r.origin}`, `^~ ${r.origin}/`];
    for (const m of matches) out.push(`    location ${m} {`, ...body.map((l) => `        ${l}`), '    }');
  }
  return out;
}

/** A suspended host: its own content, PHP and redirections stay out of reach until it is restored. */
const suspendedBlocks = (v: Vhost) => [
  '    error_page 503 /suspended.html;',
  '    location = /suspended.html {',
  '        internal;',
  ...page(v, 'suspended.html').map((l) => `        ${l}`),
  '    }',
  '    location / {',
  '        return 503;',
  '    }',
];

function contentBlocks(v: Vhost): string[] {
  if (v.mtaSts) {
    const policy = [`root ${quotePath(v.pagesDir)};`, 'default_type text/plain;', 'try_files /mta-sts.txt =404;'];
    return [
      '    location = /.well-known/mta-sts.txt {',
      ...policy.map((l) => `        ${l}`),
      '    }',
      '    location / {',
      '        return 404;',
      '    }',
    ];
  }
  const takesRoot = v.redirections.some((r) => r.origin === '/');
  if (takesRoot) return [];
  if (v.parking || v.root === null) {
    return v.parking
      ? ['    location / {', ...page(v, 'parking.html').map((l) => `        ${l}`), '    }']
      : ['    location / {', '        return 404;', '    }'];
  }
  // With PHP, a path that is no file goes to the root's index.php, the front controller of the PHP
  // applications the installer sets up (WordPress's permalinks); without one it stays a 404.
  const fallback = v.phpSocket ? '/index.php$is_args$args' : '=404';
  const out = ['    location / {', `        try_files $uri $uri/ ${fallback};`, '    }'];
  if (v.phpSocket) {
    // The whole address is one quoted token: nginx would take quotes after `unix:` as part of the path.
    out.push('    location ~ \\.php$ {', '        try_files $uri =404;', `        fastcgi_pass "unix:${quotePath(v.phpSocket).slice(1)};`);
    for (const [name, value] of FASTCGI_PARAMS) out.push(`        fastcgi_param ${name} ${value};`);
    out.push('    }');
  }
  return out;
}

/** HTTP-01 answers (decision 019): the longest prefix, so no redirection or parking page hides them. */
const acmeBlock = (v: Vhost) => [
  '    location ^~ /.well-known/acme-challenge/ {',
  `        alias ${quotePath(`${v.acmeDir}/`)};`,
  '        default_type text/plain;',
  '    }',
];

function serverBlock(v: Vhost, tls: boolean): string[] {
  const listen = tls ? `${v.listen.address}:${v.listen.https} ssl` : `${v.listen.address}:${v.listen.http}`;
  const lines = [
    'server {',
    `    listen ${listen};`,
    `    server_name ${v.host};`,
    `    access_log ${quotePath(`${v.logDir}/${v.reference}.access.log`)};`,
    `    error_log ${quotePath(`${v.logDir}/${v.reference}.error.log`)};`,
  ];
  if (tls && v.tls) lines.push(`    ssl_certificate ${quotePath(v.tls.certFile)};`, `    ssl_certificate_key ${quotePath(v.tls.keyFile)};`);
  if (v.root !== null) lines.push(`    root ${quotePath(v.root)};`, `    index index.html index.htm${v.phpSocket ? ' index.php' : ''};`);
  if (!tls) lines.push(...acmeBlock(v));
  lines.push(...(v.suspended ? suspendedBlocks(v) : [...redirectionBlocks(v), ...contentBlocks(v)]), '}');
  return lines;
}

/** The whole vhost file of a host: plain HTTP, plus HTTPS with its certificate when SSL is on. */
export function renderVhost(v: Vhost): string {
  const header = `# Generated by Atalaya for ${v.key} (${v.host}); the panel rewrites this file, do not edit it.`;
  const blocks = [serverBlock(v, false)];
  if (v.tls) blocks.push(serverBlock(v, true));
  return `${header}\n${blocks.map((b) => b.join('\n')).join('\n\n')}\n`;
}
