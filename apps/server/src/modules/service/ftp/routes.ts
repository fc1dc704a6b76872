import { type AutoForm, FtpCreateForm, FtpLoginQuery, FtpSaveForm, type FtpUser, LIMITS, normaliseFolder, PasswordForm } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FieldErrors, notFound } from '../../../http/errors.ts';
import { now } from '../../../store/db.ts';
import { serviceAccess } from '../access.ts';
import type { ServiceContext } from '../context.ts';
import { changeChild, insertChild } from '../jobs.ts';
import { backendState, nameTakenAs } from '../state.ts';
import { pathId } from '../../../http/ids.ts';

const params = { params: z.object({ id: z.string() }) };
const child = { params: z.object({ id: z.string(), ftpId: z.string() }) };
type Row = { id: number; name: string; login: string; folder: string; deleting: number; job_id: number | null; job_status: string | null };

const toFtp = (row: Row): FtpUser => ({
  id: row.id,
  user: row.login,
  name: row.name,
  directorio: row.folder,
  eliminable: !row.deleting,
  state: backendState(row.deleting, row.job_status),
  job: row.job_id,
});

/** FTP users: /service/{id}/ftp/…; logins are name.reference, homes stay inside the web root. */
export function ftpRoutes(ctx: ServiceContext) {
  const rows = (itemId: number) =>
    ctx.store
      .selectFrom('ftp_user as f')
      .leftJoin('job', 'job.id', 'f.job_id')
      .select(['f.id', 'f.name', 'f.login', 'f.folder', 'f.password_secret', 'f.deleting', 'f.job_id', 'job.status as job_status'])
      .where('f.item_id', '=', itemId);
  const one = async (itemId: number, id: string) => {
    const row = await rows(itemId).where('f.id', '=', pathId(id)).where('f.deleting', '=', 0).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };

  return async (plugin: FastifyInstance) => {
    const app = plugin.withTypeProvider<ZodTypeProvider>();

    app.get('/service/:id/ftp/main/', { schema: params }, async (request) => {
      const { access } = await serviceAccess(request, request.params.id, 'service_ftp', 'read');
      const ref = access.reference;
      return { data: { ftp: { server: `ftp.${ref}`, reference: ref, suffix: `.${ref}`, maxUser: LIMITS.ftpUserMax, webFtp: true } } };
    });

    app.get('/service/:id/ftp/list/', { schema: params }, async (request) => {
      const { service } = await serviceAccess(request, request.params.id, 'service_ftp', 'read');
      return { data: { ftps: (await rows(service.item_id).orderBy('f.name').execute()).map(toFtp) } };
    });

    app.get('/service/:id/ftp/:ftpId/', { schema: child }, async (request) => {
      const { service } = await serviceAccess(request, request.params.id, 'service_ftp', 'read');
      const row = await one(service.item_id, request.params.ftpId);
      return { data: { ftp: { ...toFtp(row), password: ctx.secrets.decrypt(row.password_secret) } } };
    });

    app.post('/service/:id/ftp/create/', { schema: { ...params, body: FtpCreateForm } }, async (request) => {
      const { access, service } = await serviceAccess(request, request.params.id, 'service_ftp', 'write');
      const { ftpUser, password, folder } = request.body;
      const login = `${ftpUser}.${access.reference}`;
      const taken = await ctx.store.selectFrom('ftp_user').select('id').where('login', '=', login).executeTakeFirst();
      if (taken) throw FieldErrors.one('ftpUser', 'service.name_taken');
      const values = { item_id: service.item_id, name: ftpUser, login, folder, password_secret: ctx.secrets.encrypt(password), created_at: now() };
      const { id, job } = await insertChild(ctx.store, 'ftp_user', service.item_id, values).catch(nameTakenAs('ftpUser'));
      return { data: { ftp: toFtp(await one(service.item_id, String(id))) }, info: [{ key: 'service.ftp_created' }], job };
    });

    app.post('/service/:id/ftp/:ftpId/save/', { schema: { ...child, body: FtpSaveForm } }, async (request) => {
      const { service } = await serviceAccess(request, request.params.id, 'service_ftp', 'write');
      const row = await one(service.item_id, request.params.ftpId);
      const job = await changeChild(ctx.store, 'ftp_user', row.id, service.item_id, { folder: request.body.folder });
      return { data: { ftp: toFtp(await one(service.item_id, String(row.id))) }, info: [{ key: 'service.ftp_saved' }], job };
    });

    app.post('/service/:id/ftp/:ftpId/changepassword/', { schema: { ...child, body: PasswordForm } }, async (request) => {
      const { service } = await serviceAccess(request, request.params.id, 'service_ftp', 'write');
      const row = await one(service.item_id, request.params.ftpId);
      const job = await changeChild(ctx.store, 'ftp_user', row.id, service.item_id, { password_secret: ctx.secrets.encrypt(request.body.password) });
      return { data: null, info: [{ key: 'service.password_changed' }], job };
    });

    app.get('/service/:id/ftp/:ftpId/login/', { schema: { ...child, querystring: FtpLoginQuery } }, async (request) => {
      const { access, service } = await serviceAccess(request, request.params.id, 'service_ftp', 'read');
      const row = await one(service.item_id, request.params.ftpId);
      const directory = normaliseFolder(request.query.initialDirectory ?? '');
      if (directory === null) throw FieldErrors.one('initialDirectory', 'service.folder_invalid');
      const form: AutoForm = {
        target: '_blank',
        method: 'post',
        action: ctx.config.hosting.webFtpUrl,
        inputs: { server: `ftp.${access.reference}`, username: row.login, password: ctx.secrets.decrypt(row.password_secret), directory: `/${directory}` },
      };
      return { data: form };
    });

    app.get('/service/:id/ftp/:ftpId/delete/', { schema: child }, async (request) => {
      const { service } = await serviceAccess(request, request.params.id, 'service_ftp', 'write');
      const row = await one(service.item_id, request.params.ftpId);
      const job = await changeChild(ctx.store, 'ftp_user', row.id, service.item_id, { deleting: 1 });
      return { data: null, info: [{ key: 'service.ftp_deleted' }], job };
    });
  };
}
