import { generatePassword } from '@atalaya/contract';
import type { Config } from '../../config/config.ts';
import { databaseName } from '../../drivers/databases/interface.ts';
import { localDatabaseDriver } from '../../drivers/databases/local.ts';
import { localFtpDriver } from '../../drivers/ftp/local.ts';
import { localMailDriver } from '../../drivers/mail/local.ts';
import { localWebDriver } from '../../drivers/web/local.ts';
import { createSecrets, loadSecretKey } from '../../secrets.ts';
import { now, type Store } from '../../store/db.ts';
import { webRootOf } from './jobs.ts';

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
    aliases: [['contacto', ['info@example.com', 'ventas@example.com']], ['', ['info@example.com']], ['webmaster', ['admin@example.com']]],
    ftp: [['web', 'public_html'], ['blog', 'public_html/blog'], ['backup', 'copias']],
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
  'clinica-ejemplo.es': { accounts: ['citas', 'info'], aliases: [['urgencias', ['citas@clinica-ejemplo.es']]], usage: { web: 120 * MB, traffic: 512 * MB, db: 0 } },
};

/** The demo's mail accounts, aliases, FTP users and databases, applied to the local drivers' state. */
export async function seedServiceDemo(store: Store, realm: string, config: Config) {
  const secrets = createSecrets(loadSecretKey(config.dataDir));
  const [web, mail, ftp, databases] = [localWebDriver(store), localMailDriver(store), localFtpDriver(store), localDatabaseDriver(store)];
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
        await store.updateTable('service').set({ used_space_web: Math.round(w), used_traffic: Math.round(traffic), used_space_databases: Math.round(db), php_version: demo.php ?? 'default' }).where('item_id', '=', item.id).execute();
      }
      await web.applyService({ reference: item.reference, kind: item.kind, phpVersion: demo.php ?? config.hosting.defaultPhpVersion, parkingActive: false, webRoot: webRootOf(config.hosting.webRoot, item.reference) });
      await web.appendErrorLog(item.reference, [
        { ts: t - 7200, level: 'warn', message: `PHP Warning: Undefined variable $total in /var/www/${item.reference}/public_html/carrito.php on line 42` },
        { ts: t - 3600, level: 'error', message: `PHP Fatal error: Uncaught Error: Call to undefined function mysql_connect() in /var/www/${item.reference}/public_html/antiguo/db.php:7` },
        { ts: t - 600, level: 'error', message: `File does not exist: /var/www/${item.reference}/public_html/favicon.ico` },
      ]);
    }
    for (const name of demo.accounts ?? []) {
      const password = generatePassword();
      const quota = config.hosting.mailQuotaMb * MB;
      await store.insertInto('mail_account').values({ item_id: item.id, name, password_secret: secrets.encrypt(password), quota, used: Math.round(quota * ((name.length * 7) % 60) / 100), created_at: t }).execute();
      await mail.ensureMailbox({ address: `${name}@${item.reference}`, password, quota });
    }
    for (const [name, targets] of demo.aliases ?? []) {
      await store.insertInto('mail_alias').values({ item_id: item.id, name, targets: targets.join(','), created_at: t }).execute();
      await mail.ensureAlias({ address: `${name}@${item.reference}`, targets });
    }
    for (const [name, folder] of demo.ftp ?? []) {
      const password = generatePassword();
      const login = `${name}.${item.reference}`;
      await store.insertInto('ftp_user').values({ item_id: item.id, name, login, folder, password_secret: secrets.encrypt(password), created_at: t }).execute();
      await ftp.ensureUser({ login, password, home: `${webRootOf(config.hosting.webRoot, item.reference)}/${folder}` });
    }
    for (const [index, external] of (demo.databases ?? []).entries()) {
      const password = generatePassword();
      const name = databaseName('', item.reference, index + 1);
      await store.insertInto('service_database').values({ item_id: item.id, name, username: name, password_secret: secrets.encrypt(password), external_access: external ? 1 : 0, created_at: t - index * 86400 }).execute();
      await databases.ensure({ name, user: name, password, externalAccess: external });
    }
  }
}
