import { generatePassword } from '@atalaya/contract';
import { databaseName } from '../../drivers/databases/interface.ts';
import type { ErrorLogEntry } from '../../drivers/web/interface.ts';
import type { Runtime } from '../../kernel/runtime.ts';
import { now } from '../../store/db.ts';
import { enqueueChild, enqueueWeb } from './jobs.ts';

const MB = 1024 * 1024;

interface DemoService {
  accounts?: string[];
  aliases?: [string, string[]][];
  ftp?: [string, string][];
  databases?: boolean[];
  usage?: { web: number; traffic: number; db: number };
  php?: string;
}

/** What the demo's hosting services hold: enough rows to page, filter and act on. */
const DEMO: Record<string, DemoService> = {
  'example.com': {
    accounts: ['info', 'ventas', 'admin', 'soporte', 'facturacion', 'marketing', 'rrhh', 'direccion', 'recepcion', 'compras', 'legal'],
    aliases: [
      ['contacto', ['info@example.com', 'ventas@example.com']],
      ['', ['info@example.com']],
      ['webmaster', ['admin@example.com']],
    ],
    ftp: [
      ['web', 'public_html'],
      ['blog', 'public_html/blog'],
      ['backup', 'copias'],
    ],
    databases: [false, true],
    usage: { web: 2.4 * 1024 * MB, traffic: 18.75 * 1024 * MB, db: 180 * MB },
    php: '8.2',
  },
  'tienda-ejemplo.es': {
    accounts: ['pedidos', 'soporte'],
    aliases: [['tienda', ['pedidos@tienda-ejemplo.es']]],
    ftp: [['tienda', 'public_html']],
    databases: [false],
    usage: { web: 7.9 * 1024 * MB, traffic: 61 * 1024 * MB, db: 620 * MB },
  },
  'blog-ejemplo.com': { ftp: [['editor', 'wp']], databases: [false], usage: { web: 300 * MB, traffic: 2 * 1024 * MB, db: 40 * MB } },
  'clinica-ejemplo.es': {
    accounts: ['citas', 'info'],
    aliases: [['urgencias', ['citas@clinica-ejemplo.es']]],
    usage: { web: 120 * MB, traffic: 512 * MB, db: 0 },
  },
};

/** A web driver that can be given sample error-log lines (the local one); real servers write their own. */
const withSampleLog = (web: object): web is { appendErrorLog(reference: string, entries: ErrorLogEntry[]): Promise<boolean> } =>
  'appendErrorLog' in web;

/**
 * The demo's mail accounts, aliases, FTP users and databases: rows written as a customer's changes
 * are, each with the outbox job that applies it to the configured backend.
 */
export async function seedServiceDemo(runtime: Runtime, realm: string) {
  const { store, secrets, config } = runtime;
  const items = await store
    .selectFrom('item')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .leftJoin('service', 'service.item_id', 'item.id')
    .select(['item.id', 'item.reference', 'service.kind', 'service.php_version'])
    .where('realm.name', '=', realm)
    .execute();
  const t = now();
  for (const item of items) {
    const demo = DEMO[item.reference] ?? {};
    if (item.kind) {
      if (demo.usage) {
        const { web: w, traffic, db } = demo.usage;
        await store
          .updateTable('service')
          .set({
            used_space_web: Math.round(w),
            used_traffic: Math.round(traffic),
            used_space_databases: Math.round(db),
            php_version: demo.php ?? 'default',
          })
          .where('item_id', '=', item.id)
          .execute();
      }
      await enqueueWeb(store, item.id);
    }
    for (const name of demo.accounts ?? []) {
      const password = generatePassword();
      const quota = config.hosting.mailQuotaMb * MB;
      await store
        .insertInto('mail_account')
        .values({
          item_id: item.id,
          name,
          password_secret: secrets.encrypt(password),
          quota,
          used: Math.round((quota * ((name.length * 7) % 60)) / 100),
          created_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => enqueueChild(store, 'mail_account', row.id, item.id));
    }
    for (const [name, targets] of demo.aliases ?? []) {
      await store
        .insertInto('mail_alias')
        .values({ item_id: item.id, name, targets: targets.join(','), created_at: t })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => enqueueChild(store, 'mail_alias', row.id, item.id));
    }
    for (const [name, folder] of demo.ftp ?? []) {
      const password = generatePassword();
      const login = `${name}.${item.reference}`;
      await store
        .insertInto('ftp_user')
        .values({ item_id: item.id, name, login, folder, password_secret: secrets.encrypt(password), created_at: t })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => enqueueChild(store, 'ftp_user', row.id, item.id));
    }
    for (const [index, external] of (demo.databases ?? []).entries()) {
      const password = generatePassword();
      const name = databaseName('', item.reference, item.id, index + 1);
      await store
        .insertInto('service_database')
        .values({
          item_id: item.id,
          name,
          username: name,
          password_secret: secrets.encrypt(password),
          external_access: external ? 1 : 0,
          created_at: t - index * 86400,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
        .then((row) => enqueueChild(store, 'service_database', row.id, item.id));
    }
  }
}

/**
 * Sample lines in each demo service's error log, so the log view has something to show. Only the
 * local web driver takes them (real servers write their own logs), once its jobs have run; a site
 * whose job is still waiting out a retry goes without them rather than failing the first start.
 */
export async function seedSampleErrorLogs({ store, drivers }: Runtime, realm: string) {
  if (!withSampleLog(drivers.web)) return;
  const services = await store
    .selectFrom('item')
    .innerJoin('realm', 'realm.id', 'item.realm_id')
    .innerJoin('service', 'service.item_id', 'item.id')
    .select('item.reference')
    .where('realm.name', '=', realm)
    .execute();
  const t = now();
  for (const { reference } of services) {
    await drivers.web.appendErrorLog(reference, [
      {
        ts: t - 7200,
        level: 'warn',
        message: `PHP Warning: Undefined variable $total in /var/www/${reference}/public_html/carrito.php on line 42`,
      },
      {
        ts: t - 3600,
        level: 'error',
        message: `PHP Fatal error: Uncaught Error: Call to undefined function mysql_connect() in /var/www/${reference}/public_html/antiguo/db.php:7`,
      },
      { ts: t - 600, level: 'error', message: `File does not exist: /var/www/${reference}/public_html/favicon.ico` },
    ]);
  }
}
