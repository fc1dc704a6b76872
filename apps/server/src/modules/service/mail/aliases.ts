import { AliasCreateForm, AliasSaveForm, type MailAlias } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FieldErrors, notFound } from '../../../http/errors.ts';
import { now } from '../../../store/db.ts';
import { mailAccess } from '../access.ts';
import type { ServiceContext } from '../context.ts';
import { changeChild, insertChild } from '../jobs.ts';
import { backendState, nameTakenAs } from '../state.ts';
import { nameTaken } from './shared.ts';
import { pathId } from '../../../http/ids.ts';

const params = { params: z.object({ id: z.string() }) };
const child = { params: z.object({ id: z.string(), aliasId: z.string() }) };
type Row = { id: number; name: string; targets: string; deleting: number; job_id: number | null; job_status: string | null };

const toAlias = (row: Row, reference: string): MailAlias => ({
  id: row.id,
  alias: row.name,
  referencePunycode: reference,
  name: row.targets.split(',').join(', '),
  targets: row.targets.split(','),
  eliminable: !row.deleting,
  state: backendState(row.deleting, row.job_status),
  job: row.job_id,
});

/** Aliases: /service/{id}/alias/… */
export function aliasRoutes(ctx: ServiceContext) {
  const rows = (itemId: number) =>
    ctx.store
      .selectFrom('mail_alias as a')
      .leftJoin('job', 'job.id', 'a.job_id')
      .select(['a.id', 'a.name', 'a.targets', 'a.deleting', 'a.job_id', 'job.status as job_status'])
      .where('a.item_id', '=', itemId);
  const one = async (itemId: number, id: string) => {
    const row = await rows(itemId).where('a.id', '=', pathId(id)).where('a.deleting', '=', 0).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };

  return async (plugin: FastifyInstance) => {
    const app = plugin.withTypeProvider<ZodTypeProvider>();

    app.get('/service/:id/alias/list/', { schema: params }, async (request) => {
      const { access, mail } = await mailAccess(request, request.params.id, 'servicemail_alias', 'read');
      const list = await rows(mail.item_id).orderBy('a.name').execute();
      return { data: { alias: list.map((r) => toAlias(r, access.reference)) } };
    });

    app.get('/service/:id/alias/:aliasId/', { schema: child }, async (request) => {
      const { access, mail } = await mailAccess(request, request.params.id, 'servicemail_alias', 'read');
      return { data: { alias: toAlias(await one(mail.item_id, request.params.aliasId), access.reference) } };
    });

    app.post('/service/:id/alias/create/', { schema: { ...params, body: AliasCreateForm } }, async (request) => {
      const { access, mail } = await mailAccess(request, request.params.id, 'servicemail_alias', 'write');
      const { name, target } = request.body;
      if (await nameTaken(ctx, mail.item_id, name)) throw FieldErrors.one('name', 'service.name_taken');
      const values = { item_id: mail.item_id, name, targets: target.join(','), created_at: now() };
      const { id, job } = await insertChild(ctx.store, 'mail_alias', mail.item_id, values).catch(nameTakenAs('name'));
      return { data: { alias: toAlias(await one(mail.item_id, String(id)), access.reference) }, info: [{ key: 'service.alias_created' }], job };
    });

    app.post('/service/:id/alias/:aliasId/save/', { schema: { ...child, body: AliasSaveForm } }, async (request) => {
      const { access, mail } = await mailAccess(request, request.params.id, 'servicemail_alias', 'write');
      const row = await one(mail.item_id, request.params.aliasId);
      const job = await changeChild(ctx.store, 'mail_alias', row.id, mail.item_id, { targets: request.body.target.join(',') });
      return { data: { alias: toAlias(await one(mail.item_id, String(row.id)), access.reference) }, info: [{ key: 'service.alias_saved' }], job };
    });

    app.get('/service/:id/alias/:aliasId/delete/', { schema: child }, async (request) => {
      const { mail } = await mailAccess(request, request.params.id, 'servicemail_alias', 'write');
      const row = await one(mail.item_id, request.params.aliasId);
      const job = await changeChild(ctx.store, 'mail_alias', row.id, mail.item_id, { deleting: 1 });
      return { data: null, info: [{ key: 'service.alias_deleted' }], job };
    });
  };
}
