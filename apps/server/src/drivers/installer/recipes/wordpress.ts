import { randomInt } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { mysqlConnection } from '../../mysql.ts';
import { run } from '../../real/common/run.ts';
import { InstallRefused, type InstallRequest } from '../interface.ts';

/** A PHP single-quoted string: only the backslash and the quote are special there. */
const php = (value: string) => `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

const SALT_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&()*+,-./:;<=>?@[]^_{|}~';
/** A 64-character secret from the system's random source, as WordPress's own salt service makes them. */
const salt = () => Array.from({ length: 64 }, () => SALT_CHARS[randomInt(SALT_CHARS.length)]).join('');
const SALT_NAMES = [
  'AUTH_KEY',
  'SECURE_AUTH_KEY',
  'LOGGED_IN_KEY',
  'NONCE_KEY',
  'AUTH_SALT',
  'SECURE_AUTH_SALT',
  'LOGGED_IN_SALT',
  'NONCE_SALT',
];

/** The table prefix the wizard asked for; the catalogue's pattern checked it, this is the last line. */
export function tablePrefix(request: InstallRequest): string {
  const prefix = request.inputs.table_prefix || 'wp_';
  if (!/^[A-Za-z0-9_]{1,20}$/.test(prefix)) throw new InstallRefused('sites.input_invalid', 'table prefix');
  return prefix;
}

/** wp-config.php from the wizard's answers: the database, the table prefix and fresh salts. */
export function wordpressConfig(request: InstallRequest): string {
  const db = request.database;
  if (!db) throw new InstallRefused('sites.database_required');
  return [
    '<?php',
    '/* Written by the hosting panel from the installation wizard; WordPress reads it on every request. */',
    `define( 'DB_NAME', ${php(db.name)} );`,
    `define( 'DB_USER', ${php(db.user)} );`,
    `define( 'DB_PASSWORD', ${php(db.password)} );`,
    `define( 'DB_HOST', ${php(db.host)} );`,
    "define( 'DB_CHARSET', 'utf8mb4' );",
    "define( 'DB_COLLATE', '' );",
    ...SALT_NAMES.map((name) => `define( '${name}', ${php(salt())} );`),
    `$table_prefix = ${php(tablePrefix(request))};`,
    "define( 'WP_DEBUG', false );",
    "if ( ! defined( 'ABSPATH' ) ) {",
    "\tdefine( 'ABSPATH', __DIR__ . '/' );",
    '}',
    "require_once ABSPATH . 'wp-settings.php';",
    '',
  ].join('\n');
}

/**
 * WordPress's own installer (wp_install: tables, options, the administrator), run by the PHP CLI
 * on the unpacked copy. The answers arrive on stdin, so the password is never in a process list.
 */
const INSTALL_SCRIPT = `<?php
$in = json_decode(stream_get_contents(STDIN), true);
$parts = parse_url($in['url']);
$_SERVER['HTTP_HOST'] = $parts['host'];
$_SERVER['REQUEST_URI'] = $parts['path'] ?? '/';
define('WP_INSTALLING', true);
require $argv[1] . '/wp-load.php';
require_once ABSPATH . 'wp-admin/includes/upgrade.php';
if (is_blog_installed()) { fwrite(STDERR, "already installed\\n"); exit(3); }
$url = rtrim($in['url'], '/');
$result = wp_install($in['title'], $in['user'], $in['email'], true, '', wp_slash($in['password']), $in['language']);
update_option('siteurl', $url);
update_option('home', $url);
echo json_encode(['user_id' => $result['user_id']]), "\\n";
`;

/** Connects as the application's own database user, as WordPress will. */
const connect = (db: NonNullable<InstallRequest['database']>) =>
  mysqlConnection({ host: db.host, user: db.user, password: db.password, database: db.name, connectTimeout: 5000 });

/** The tables the installation would write: refused when some exist, so a failure never drops a customer's data. */
export async function checkTablesFree(request: InstallRequest): Promise<void> {
  const db = request.database!;
  const c = await connect(db);
  try {
    const [rows] = await c.query('SHOW TABLES LIKE ?', [`${tablePrefix(request).replace(/_/g, '\\_')}%`]);
    if ((rows as unknown[]).length > 0) throw new InstallRefused('sites.database_in_use');
  } finally {
    await c.end().catch(() => c.destroy());
  }
}

/** Drops the tables with the installation's prefix: what wp_install wrote, undone after a later step failed. */
export async function dropTables(request: InstallRequest): Promise<void> {
  const db = request.database!;
  const c = await connect(db);
  try {
    const [rows] = await c.query('SHOW TABLES LIKE ?', [`${tablePrefix(request).replace(/_/g, '\\_')}%`]);
    for (const row of rows as Record<string, string>[]) {
      const name = Object.values(row)[0];
      await c.query(`DROP TABLE \`${name.replace(/`/g, '``')}\``);
    }
  } finally {
    await c.end().catch(() => c.destroy());
  }
}

export async function runWordpressInstaller(
  request: InstallRequest,
  dir: string,
  phpBinary: string,
  scratch: string,
  signal?: AbortSignal,
) {
  const script = path.join(scratch, 'wp-install.php');
  await writeFile(script, INSTALL_SCRIPT, { mode: 0o600 });
  const answers = {
    url: request.url,
    title: request.inputs.site_title ?? request.application.softName,
    user: request.inputs.admin_user,
    email: request.inputs.admin_email,
    password: request.inputs.admin_password,
    language: request.inputs.language === 'en_US' ? '' : (request.inputs.language ?? ''),
  };
  const result = await run(phpBinary, [script, dir], { input: JSON.stringify(answers), timeoutMs: 120_000, signal });
  if (result.code !== 0) {
    throw new Error(`WordPress's installer failed (${result.code}): ${(result.stderr || result.stdout).trim().slice(0, 500)}`);
  }
}
