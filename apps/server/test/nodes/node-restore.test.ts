import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsSettings } from '../../src/drivers/dns/index.ts';
import { queueBackup } from '../../src/modules/backups/jobs.ts';
import { ensureZone } from '../../src/modules/dns/zone.ts';
import { createItem, createRealm } from '../../src/modules/provisioning/accounts.ts';
import { enqueueWeb, insertChild } from '../../src/modules/service/jobs.ts';
import { enqueueApply, siteKey } from '../../src/modules/sites/state.ts';
import { createSecrets, sealingKey } from '../../src/secrets.ts';
import { now } from '../../src/store/db.ts';
import { imapFirstMessage } from '../backends/harness/dovecot.ts';
import { dropPrefixed, MARIADB_ADMIN, mariadbReachable } from '../mariadb.ts';
import { skipReason } from '../skip.ts';
import { describeStores, openTestStore } from '../stores.ts';
import { type Cluster, startCluster } from './cluster.ts';
import { eventually, launch } from './processes.ts';

const reachable = await mariadbReachable();
skipReason(reachable ? null : 'MariaDB is not reachable at 127.0.0.1:3306 (root, no password): the node-restore test');
/** The machine's MariaDB socket: each node's namespace reaches it at its own 127.0.0.1:3306 through it. */
const MARIADB_SOCKET = '/run/mysqld/mysqld.sock';

/**
 * The panel and two agents as processes, each node in its own network namespace with its own nginx
 * and Dovecot (cluster.ts, as move.test.ts): a service on web1 backed up, web1 then lost for good,
 * `node-restore web1 --to web2` rebuilds it on web2 from the backup (decision 064).
 */
describe.skipIf(!reachable)('node-restore', () =>
  describeStores('rebuilding a lost node from its backups on %s', (kind) => {
    let opened: Awaited<ReturnType<typeof openTestStore>>;
    let cluster: Cluster;
    let secrets: ReturnType<typeof createSecrets>;
    const forwarders: ChildProcess[] = [];
    const prefix = `nr${randomBytes(3).toString('hex')}_`;
    const realm = `restore-${kind}.test`;
    const env = () => ({ ATALAYA_DATA_DIR: opened.config.dataDir, DATABASE_URL: opened.config.databaseUrl ?? '' });
    const job = (id: number) => opened.store.selectFrom('job').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const doneJob = (id: number, ms = 60_000) => eventually(async () => (await job(id)).status === 'done', ms, `job ${id} done`);
    const passwd = (name: string) => {
      const file = String(cluster.nodes[name]!.dovecot.options.passwdFile);
      return existsSync(file) ? readFileSync(file, 'utf8') : '';
    };
    const home = (name: string, reference: string, local: string) =>
      path.join(String(cluster.nodes[name]!.dovecot.options.mailRoot), reference, local);
    const apexAddress = async (itemId: number) =>
      (
        await opened.store
          .selectFrom('dns_record')
          .select('value')
          .where('item_id', '=', itemId)
          .where('zona', '=', '')
          .where('type', '=', 'A')
          .executeTakeFirstOrThrow()
      ).value;

    beforeAll(async () => {
      opened = await openTestStore(kind);
      await createRealm(opened.store, realm);
      secrets = createSecrets(sealingKey(opened.config));
      cluster = await startCluster(
        opened,
        ['web1', 'web2'],
        { ATALAYA_JOB_LEASE_SECONDS: '5' },
        // No nightly backup may come in between: the second service must have none.
        { backups: { enabled: false } },
        { databases: { driver: 'mariadb', dsn: 'mysql://root@127.0.0.1:3306' } },
      );
      // The nodes share the machine's MariaDB; inside a namespace its 127.0.0.1:3306 is forwarded to the socket.
      for (const node of Object.values(cluster.nodes)) {
        if (node.net.kind !== 'namespace') continue;
        const script = `const net = require('node:net'); net.createServer((c) => { const s = net.connect(${JSON.stringify(MARIADB_SOCKET)}); c.pipe(s).pipe(c); s.on('error', () => c.destroy()); c.on('error', () => s.destroy()); }).listen(3306, '127.0.0.1');`;
        const [command, ...args] = [...node.net.wrap, process.execPath, '-e', script];
        forwarders.push(spawn(command!, args, { stdio: 'ignore' }));
      }
    }, 180_000);

    afterAll(async () => {
      for (const f of forwarders) f.kill('SIGKILL');
      await cluster?.stop();
      await opened?.cleanup();
      if (reachable) await dropPrefixed(prefix);
    });

    it('rebuilds the services of a stopped web1 on web2: its site, mailbox, database and DNS records there, and a service without a backup listed as not restored', {
      timeout: 150_000,
    }, async () => {
      const reference = `kept-${kind}.test`;
      const bare = `bare-${kind}.test`;
      const item = await createItem(opened.store, { realm, reference, service: 'normal', mail: true, node: 'web1' });
      const bareItem = await createItem(opened.store, { realm, reference: bare, service: 'normal', mail: true, node: 'web1' });
      const t = now();
      const site = await opened.store
        .insertInto('site')
        .values({ service_id: item.id, name: 'www', folder: 'public', created_at: t, updated_at: t })
        .returning('id')
        .executeTakeFirstOrThrow();
      const database = `${prefix}kept`;
      const jobs = [
        await enqueueWeb(opened.store, item.id),
        await enqueueApply(opened.store, item.id, siteKey(site.id)),
        await enqueueWeb(opened.store, bareItem.id),
        ...(await Promise.all(
          [
            [item.id, 'ana', 'pw-ana'],
            [bareItem.id, 'eva', 'pw-eva'],
          ].map(async ([id, name, pw]) => {
            const made = await insertChild(opened.store, 'mail_account', id as number, {
              item_id: id as number,
              name: name as string,
              password_secret: secrets.encrypt(pw as string),
              quota: 0,
              job_id: null,
              created_at: t,
            });
            return made.job;
          }),
        )),
        (
          await insertChild(opened.store, 'service_database', item.id, {
            item_id: item.id,
            name: database,
            username: database,
            password_secret: secrets.encrypt('pw-db-kept'),
            created_at: t,
          })
        ).job,
      ];
      await ensureZone(opened.store, { settings: dnsSettings(opened.config) }, item.id, reference);
      for (const id of jobs) await doneJob(id);
      expect(await apexAddress(item.id)).toBe(cluster.nodes.web1!.net.address);

      // The customer's data on web1: a page, a message, a row.
      const web1Root = cluster.webRoot('web1', reference);
      writeFileSync(path.join(web1Root, 'public', 'index.html'), 'hello from the rebuilt site\n');
      for (const sub of ['new', 'cur', 'tmp']) mkdirSync(path.join(home('web1', reference, 'ana'), 'Maildir', sub), { recursive: true });
      writeFileSync(
        path.join(home('web1', reference, 'ana'), 'Maildir', 'new', '1700000000.M1P1.node'),
        `From: luis@example.test\r\nTo: ana@${reference}\r\nSubject: kept\r\n\r\nthe message the backup kept\r\n`,
      );
      spawnSync('chown', ['-R', '65534:65534', path.join(String(cluster.nodes.web1!.dovecot.options.mailRoot), reference)]);
      const admin = await mysql.createConnection(MARIADB_ADMIN);
      await admin.query(`CREATE TABLE \`${database}\`.notes (id INT PRIMARY KEY, body TEXT)`);
      await admin.query(`INSERT INTO \`${database}\`.notes VALUES (1, 'the row the backup kept')`);

      // Backed up by web1's agent, straight into the realm's repository.
      const { id: backupId, job: backupJob } = await queueBackup(opened.store, item.id, 'customer');
      await doneJob(backupJob, 90_000);
      const backup = await opened.store.selectFrom('backup').selectAll().where('id', '=', backupId).executeTakeFirstOrThrow();
      expect(backup.status).toBe('done');
      expect((JSON.parse(backup.parts) as { part: string }[]).map((p) => p.part)).toEqual(expect.arrayContaining(['web', 'mail', 'db']));

      // web1 is lost for good: its agent and nginx stop, its disk and its database are gone (the
      // nodes share this machine's MariaDB and file system, so they are removed by hand).
      await cluster.stopAgent('web1');
      await cluster.nodes.web1!.nginx.stop();
      rmSync(web1Root, { recursive: true, force: true });
      rmSync(path.join(String(cluster.nodes.web1!.dovecot.options.mailRoot), reference), { recursive: true, force: true });
      await admin.query(`DROP DATABASE \`${database}\``);
      // A change queued for web1 after it was lost: it goes to web2 with the service.
      const { job: late } = await insertChild(opened.store, 'mail_account', item.id, {
        item_id: item.id,
        name: 'luis',
        password_secret: secrets.encrypt('pw-luis'),
        quota: 0,
        job_id: null,
        created_at: now(),
      });

      const cli = launch('cli', ['node-restore', 'web1', '--to', 'web2', '--wait'], env());
      // Not whole: the second service had no backup, which the exit code says.
      expect(await cli.exited).toBe(1);
      const out = cli.output();
      expect(out).toMatch(new RegExp(`Rebuilding ${reference} on web2: job \\d+`));
      expect(out).toContain(`${reference}: rebuilt\n  restored: web root, mailbox ana@${reference}, database ${database}\n`);
      expect(out).toContain(`${bare}: rebuilt\n  restored: -\n  not restored (no backup holds it): web root, mailbox eva@${bare}`);
      expect(out).not.toContain('failed');
      await doneJob(late);

      // web2 serves the site, its Dovecot holds the mailbox with the message, the database answers with the row.
      await eventually(
        async () => (await cluster.served('web2', `www.${reference}`)).includes('hello from the rebuilt site'),
        15_000,
        'web2 serving',
      );
      expect(
        await imapFirstMessage(cluster.nodes.web2!.dovecot.imapPort, `ana@${reference}`, 'pw-ana', cluster.nodes.web2!.net.address),
      ).toContain('the message the backup kept');
      const [rows] = await admin.query(`SELECT body FROM \`${database}\`.notes`);
      expect(rows).toEqual([{ body: 'the row the backup kept' }]);
      await admin.end();
      // The service without a backup still has its settings on web2.
      expect(passwd('web2')).toContain(`eva@${bare}:`);
      expect(passwd('web2')).toContain(`luis@${reference}:`);
      // The records the panel serves point at web2; both services are placed there; web1 takes no new ones.
      expect(await apexAddress(item.id)).toBe(cluster.nodes.web2!.net.address);
      const placed = await opened.store
        .selectFrom('item')
        .innerJoin('node', 'node.id', 'item.node_id')
        .select('node.name')
        .where('item.id', 'in', [item.id, bareItem.id])
        .execute();
      expect(placed.map((p) => p.name)).toEqual(['web2', 'web2']);
      expect(await opened.store.selectFrom('node').select('state').where('name', '=', 'web1').executeTakeFirstOrThrow()).toEqual({
        state: 'draining',
      });
      // Each piece's restore is on the service's record, done, from the backup taken.
      const restores = await opened.store.selectFrom('backup_restore').selectAll().where('item_id', '=', item.id).execute();
      expect(restores.map((r) => [r.part, r.status, r.backup_id])).toEqual([
        ['web', 'done', backupId],
        ['mail', 'done', backupId],
        ['db', 'done', backupId],
      ]);
    });
  }),
);
