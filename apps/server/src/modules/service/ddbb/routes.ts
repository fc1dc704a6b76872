import { type AutoForm, type DatabaseView, endpoints } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { noteChanges } from '../../../http/actor.ts';
import { ApiError, FieldErrors } from '../../../http/errors.ts';
import { route } from '../../../http/route.ts';
import { backendFields, type JobNode, withJobNode } from '../../../kernel/job-state.ts';
import { dumpDatabase, NodeAway } from '../../../nodes/remote.ts';
import { changeChild } from '../jobs.ts';
import { liveChild } from '../state.ts';
import { createDatabase } from './create.ts';

type Row = {
  id: number;
  name: string;
  username: string;
  external_access: number;
  created_at: number;
  used: number;
  deleting: number;
  job_id: number | null;
  job_status: string | null;
} & JobNode;

const toDatabase = (row: Row): DatabaseView => ({
  id: row.id,
  bbdd: row.name,
  user: row.username,
  externalAccess: row.external_access === 1,
  createdTS: row.created_at,
  usage: Number(row.used),
  ...backendFields(row),
});

/** Databases: /service/{id}/ddbb/…; names generated, one user each, applied by the databases driver. */
export default async function ddbbRoutes(app: FastifyInstance) {
  const { runtime } = app;
  const { store, secrets, config } = runtime;
  const rows = (itemId: number) =>
    store
      .selectFrom('service_database as d')
      .leftJoin('job', 'job.id', 'd.job_id')
      .$call(withJobNode)
      .select([
        'd.id',
        'd.name',
        'd.username',
        'd.password_secret',
        'd.external_access',
        'd.created_at',
        'd.used',
        'd.deleting',
        'd.job_id',
        'job.status as job_status',
      ])
      .where('d.item_id', '=', itemId);
  const one = (itemId: number, id: string | number) => liveChild(rows(itemId), 'd', String(id));

  route(app, endpoints.service.ddbbList, async (request) => {
    const { service } = request.access;
    return { data: { ddbb: (await rows(service.item_id).orderBy('d.name').execute()).map(toDatabase) } };
  });

  route(app, endpoints.service.ddbbGet, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.dbId);
    // Disclosing a credential is recorded like a change: which one, never its value.
    noteChanges(request, null, { database: row.name });
    return { data: { ddbb: { ...toDatabase(row), password: secrets.decrypt(row.password_secret) } } };
  });

  route(app, endpoints.service.ddbbCreate, async (request) => {
    const { access } = request;
    const { service } = access;
    const count = await store
      .selectFrom('service_database')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('item_id', '=', service.item_id)
      .where('deleting', '=', 0)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= service.limit_databases) throw FieldErrors.one('form', 'service.ddbb_limit', { limit: service.limit_databases });
    const { id, job } = await createDatabase(runtime, service.item_id, access.reference, request.body.password);
    return { data: { ddbb: toDatabase(await one(service.item_id, id)) }, info: [{ key: 'service.ddbb_created' }], job };
  });

  route(app, endpoints.service.ddbbPassword, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.dbId);
    const job = await changeChild(store, 'service_database', row.id, service.item_id, {
      password_secret: secrets.encrypt(request.body.password),
    });
    return { data: null, info: [{ key: 'service.password_changed' }], job };
  });

  route(app, endpoints.service.ddbbLogin, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.dbId);
    // Disclosing a credential is recorded like a change: which one, never its value.
    noteChanges(request, null, { database: row.name });
    // phpMyAdmin's cookie sign-in form.
    const form: AutoForm = {
      target: '_blank',
      method: 'post',
      action: config.hosting.phpMyAdminUrl,
      inputs: { pma_username: row.username, pma_password: secrets.decrypt(row.password_secret), server: '1', db: row.name },
    };
    return { data: form };
  });

  route(app, endpoints.service.ddbbDump, async (request, reply) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.dbId);
    // Dumped where the database lives: the service's node, through its agent.
    const stream = await dumpDatabase(runtime, service.item_id, row.name).catch((error) => {
      if (error instanceof NodeAway) throw new ApiError(503, 'service.node_away');
      request.log.warn({ err: error, database: row.name }, 'dump failed');
      throw new ApiError(409, 'service.not_ready');
    });
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-type', 'application/sql; charset=utf-8')
      .header('content-disposition', `attachment; filename="Backup-${row.name}-${day}.sql"`)
      .send(stream);
  });

  route(app, endpoints.service.ddbbExternalAccess, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.dbId);
    const external = row.external_access ? 0 : 1;
    const job = await changeChild(store, 'service_database', row.id, service.item_id, { external_access: external });
    return {
      data: { ddbb: toDatabase(await one(service.item_id, row.id)) },
      info: [{ key: external ? 'service.external_on' : 'service.external_off' }],
      job,
    };
  });

  route(app, endpoints.service.ddbbDelete, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.dbId);
    const job = await changeChild(store, 'service_database', row.id, service.item_id, { deleting: 1 });
    return { data: null, info: [{ key: 'service.ddbb_deleted' }], job };
  });
}
