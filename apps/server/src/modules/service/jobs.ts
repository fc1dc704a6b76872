import path from 'node:path';
import { type Insertable, type Kysely, sql, type Transaction, type Updateable } from 'kysely';
import type { Runtime } from '../../kernel/runtime.ts';
import { enqueue, type JobHandlers } from '../../outbox/outbox.ts';
import type { Database } from '../../store/schema.ts';
import { phpVersionOf } from '../sites/php.ts';
import { DKIM_JOB, dkimJob } from './mail/dkim.ts';
import { mailboxOf } from './mail/mailbox.ts';
import { measureUsage, USAGE_JOB } from './usage.ts';
import { webRootOf } from './web-root.ts';

/**
 * The outbox jobs of the service area. Each one carries only an id and brings the backend in line
 * with the row as it is when the job runs, so retries and reordered jobs converge on the panel's
 * state; a row marked `deleting` leaves the store only after its backend removal succeeded.
 */
export const JOB = {
  web: 'service.web.apply',
  mailbox: 'service.mailbox.apply',
  alias: 'service.alias.apply',
  ftp: 'service.ftp.apply',
  database: 'service.database.apply',
} as const;

type Db = Kysely<Database> | Transaction<Database>;
/** The job that applies each kind of child row. */
const CHILD_JOB = { mail_account: JOB.mailbox, mail_alias: JOB.alias, ftp_user: JOB.ftp, service_database: JOB.database } as const;
type ChildTable = keyof typeof CHILD_JOB;

const itemReference = async (db: Db, itemId: number) =>
  (await db.selectFrom('item').select('reference').where('id', '=', itemId).executeTakeFirstOrThrow()).reference;

/** Writes the job in the caller's transaction and stamps it on the row, whose state it becomes. */
export async function enqueueChild(trx: Db, table: ChildTable, id: number, itemId: number) {
  const job = await enqueue(trx, CHILD_JOB[table], { id }, itemId);
  await trx.updateTable(table).set({ job_id: job }).where('id', '=', id).execute();
  return job;
}

/** Writes a new child row and queues the job that creates it on the backend, in one transaction. */
export const insertChild = <T extends ChildTable>(db: Kysely<Database>, table: T, itemId: number, values: Insertable<Database[T]>) =>
  db.transaction().execute(async (trx) => {
    const row = await trx
      .insertInto(table as ChildTable)
      .values(values as Insertable<Database[ChildTable]>)
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, job: await enqueueChild(trx, table, row.id, itemId) };
  });

/** Changes a child row (a setting, its password, the `deleting` mark) and queues its job, in one transaction. */
export const changeChild = <T extends ChildTable>(
  db: Kysely<Database>,
  table: T,
  id: number,
  itemId: number,
  set: Updateable<Database[T]>,
) =>
  db.transaction().execute(async (trx) => {
    await trx
      .updateTable(table as ChildTable)
      .set(set)
      .where('id', '=', id)
      .execute();
    return enqueueChild(trx, table, id, itemId);
  });

export async function enqueueWeb(trx: Db, itemId: number) {
  const job = await enqueue(trx, JOB.web, { itemId }, itemId);
  await trx.updateTable('service').set({ job_id: job }).where('item_id', '=', itemId).execute();
  return job;
}

const idOf = (payload: unknown) => Number((payload as { id?: unknown }).id);

/** The service area's job handlers: each brings one backend object in line with its row. */
export function serviceJobs(runtime: Runtime): JobHandlers {
  const db = runtime.store;
  const handlers: JobHandlers = {
    [DKIM_JOB]: dkimJob(runtime),
    [USAGE_JOB]: (payload) =>
      measureUsage(runtime, Number((payload as { itemId?: unknown }).itemId), (reference) =>
        webRootOf(runtime.config.hosting.webRoot, reference),
      ),
    [JOB.web]: async (payload) => {
      const { drivers, config } = runtime;
      const itemId = Number((payload as { itemId?: unknown }).itemId);
      const service = await db.selectFrom('service').selectAll().where('item_id', '=', itemId).executeTakeFirst();
      if (!service) return;
      const { reference, suspended } = await db
        .selectFrom('item')
        .innerJoin('realm', 'realm.id', 'item.realm_id')
        .select(['item.reference', sql<number>`item.suspended + realm.suspended`.as('suspended')])
        .where('item.id', '=', itemId)
        .executeTakeFirstOrThrow();
      await drivers.web.applyService({
        reference,
        kind: service.kind,
        phpVersion: phpVersionOf(service.php_version, config),
        parkingActive: service.parking_active === 1,
        suspended: Number(suspended) > 0,
        webRoot: webRootOf(config.hosting.webRoot, reference),
      });
    },

    [JOB.mailbox]: async (payload) => {
      const { drivers, secrets } = runtime;
      const row = await db.selectFrom('mail_account').selectAll().where('id', '=', idOf(payload)).executeTakeFirst();
      if (!row) return;
      const address = `${row.name}@${await itemReference(db, row.item_id)}`;
      if (row.deleting) {
        await drivers.mail.removeMailbox(address);
        await db.deleteFrom('mail_account').where('id', '=', row.id).execute();
      } else {
        await drivers.mail.ensureMailbox(mailboxOf(row, address, secrets));
      }
    },

    [JOB.alias]: async (payload) => {
      const { drivers } = runtime;
      const row = await db.selectFrom('mail_alias').selectAll().where('id', '=', idOf(payload)).executeTakeFirst();
      if (!row) return;
      const address = `${row.name}@${await itemReference(db, row.item_id)}`;
      if (row.deleting) {
        await drivers.mail.removeAlias(address);
        await db.deleteFrom('mail_alias').where('id', '=', row.id).execute();
      } else {
        await drivers.mail.ensureAlias({ address, targets: row.targets.split(',') });
      }
    },

    [JOB.ftp]: async (payload) => {
      const { drivers, secrets, config } = runtime;
      const row = await db.selectFrom('ftp_user').selectAll().where('id', '=', idOf(payload)).executeTakeFirst();
      if (!row) return;
      if (row.deleting) {
        await drivers.ftp.removeUser(row.login);
        await db.deleteFrom('ftp_user').where('id', '=', row.id).execute();
      } else {
        const root = webRootOf(config.hosting.webRoot, await itemReference(db, row.item_id));
        await drivers.ftp.ensureUser({
          login: row.login,
          password: secrets.decrypt(row.password_secret),
          home: path.posix.join(root, row.folder),
        });
      }
    },

    [JOB.database]: async (payload) => {
      const { drivers, secrets } = runtime;
      const row = await db.selectFrom('service_database').selectAll().where('id', '=', idOf(payload)).executeTakeFirst();
      if (!row) return;
      if (row.deleting) {
        await drivers.databases.remove({ name: row.name, user: row.username });
        await db.deleteFrom('service_database').where('id', '=', row.id).execute();
      } else {
        await drivers.databases.ensure({
          name: row.name,
          user: row.username,
          password: secrets.decrypt(row.password_secret),
          externalAccess: row.external_access === 1,
        });
      }
    },
  };
  // The move (service.move) applies a service on its new node through these handlers; the backups
  // area registers it, since it carries the data by a snapshot (decision 064).
  return handlers;
}
