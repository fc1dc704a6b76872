import { endpoints, type MailAlias } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { FieldErrors } from '../../../http/errors.ts';
import { route } from '../../../http/route.ts';
import { backendFields, type JobNode, withJobNode } from '../../../kernel/job-state.ts';
import { now } from '../../../store/db.ts';
import { changeChild, insertChild } from '../jobs.ts';
import { liveChild, nameTakenAs } from '../state.ts';
import { nameTaken } from './shared.ts';

type Row = {
  id: number;
  name: string;
  targets: string;
  deleting: number;
  job_id: number | null;
  job_status: string | null;
} & JobNode;

const toAlias = (row: Row, reference: string): MailAlias => ({
  id: row.id,
  alias: row.name,
  referencePunycode: reference,
  name: row.targets.split(',').join(', '),
  targets: row.targets.split(','),
  ...backendFields(row),
});

/** Aliases: /service/{id}/alias/… */
export default async function aliasRoutes(app: FastifyInstance) {
  const { runtime } = app;
  const { store } = runtime;
  const rows = (itemId: number) =>
    store
      .selectFrom('mail_alias as a')
      .leftJoin('job', 'job.id', 'a.job_id')
      .$call(withJobNode)
      .select(['a.id', 'a.name', 'a.targets', 'a.deleting', 'a.job_id', 'job.status as job_status'])
      .where('a.item_id', '=', itemId);
  const one = (itemId: number, id: string) => liveChild(rows(itemId), 'a', id);

  route(app, endpoints.service.aliasList, async (request) => {
    const { access } = request;
    const { mail } = access;
    const list = await rows(mail.item_id).orderBy('a.name').execute();
    return { data: { alias: list.map((r) => toAlias(r, access.reference)) } };
  });

  route(app, endpoints.service.aliasGet, async (request) => {
    const { access } = request;
    const { mail } = access;
    return { data: { alias: toAlias(await one(mail.item_id, request.params.aliasId), access.reference) } };
  });

  route(app, endpoints.service.aliasCreate, async (request) => {
    const { access } = request;
    const { mail } = access;
    const { name, target } = request.body;
    if (await nameTaken(runtime, mail.item_id, name)) throw FieldErrors.one('name', 'service.name_taken');
    const values = { item_id: mail.item_id, name, targets: target.join(','), created_at: now() };
    const { id, job } = await insertChild(store, 'mail_alias', mail.item_id, values).catch(nameTakenAs('name'));
    return {
      data: { alias: toAlias(await one(mail.item_id, String(id)), access.reference) },
      info: [{ key: 'service.alias_created' }],
      job,
    };
  });

  route(app, endpoints.service.aliasSave, async (request) => {
    const { access } = request;
    const { mail } = access;
    const row = await one(mail.item_id, request.params.aliasId);
    const job = await changeChild(store, 'mail_alias', row.id, mail.item_id, { targets: request.body.target.join(',') });
    return {
      data: { alias: toAlias(await one(mail.item_id, String(row.id)), access.reference) },
      info: [{ key: 'service.alias_saved' }],
      job,
    };
  });

  route(app, endpoints.service.aliasDelete, async (request) => {
    const { mail } = request.access;
    const row = await one(mail.item_id, request.params.aliasId);
    const job = await changeChild(store, 'mail_alias', row.id, mail.item_id, { deleting: 1 });
    return { data: null, info: [{ key: 'service.alias_deleted' }], job };
  });
}
