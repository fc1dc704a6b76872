import { type AutoForm, MailAccountCreateForm, type MailAccount, PasswordForm } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { FieldErrors, notFound } from '../../../http/errors.ts';
import { now } from '../../../store/db.ts';
import { mailAccess } from '../access.ts';
import type { ServiceContext } from '../context.ts';
import { changeChild, insertChild } from '../jobs.ts';
import { backendState, nameTakenAs } from '../state.ts';
import { mailConfig, nameTaken } from './shared.ts';
import { pathId } from '../../../http/ids.ts';

const params = { params: z.object({ id: z.string() }) };
const child = { params: z.object({ id: z.string(), accountId: z.string() }) };
type Row = { id: number; name: string; quota: number; used: number; deleting: number; job_id: number | null; job_status: string | null };

const toAccount = (row: Row, reference: string): MailAccount => ({
  id: row.id,
  user: `${row.name}@${reference}`,
  name: row.name,
  quota: row.quota,
  usage: row.used,
  eliminable: !row.deleting,
  state: backendState(row.deleting, row.job_status),
  job: row.job_id,
});

/** Mail accounts: /service/{id}/correo/… */
export function accountRoutes(ctx: ServiceContext) {
  const rows = (itemId: number) =>
    ctx.store
      .selectFrom('mail_account as a')
      .leftJoin('job', 'job.id', 'a.job_id')
      .select(['a.id', 'a.name', 'a.quota', 'a.used', 'a.deleting', 'a.job_id', 'a.password_secret', 'job.status as job_status'])
      .where('a.item_id', '=', itemId);
  /** One account of this mail service; another service's id, or one being deleted, is not found. */
  const one = async (itemId: number, id: string) => {
    const row = await rows(itemId).where('a.id', '=', pathId(id)).where('a.deleting', '=', 0).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  };

  return async (plugin: FastifyInstance) => {
    const app = plugin.withTypeProvider<ZodTypeProvider>();

    app.get('/service/:id/correo/list/', { schema: params }, async (request) => {
      const { access, mail } = await mailAccess(request, request.params.id, 'servicemail_accounts', 'read');
      const list = await rows(mail.item_id).orderBy('a.name').execute();
      return { data: { correo: list.map((r) => toAccount(r, access.reference)), config: mailConfig(ctx, access.reference) } };
    });

    app.get('/service/:id/correo/:accountId/', { schema: child }, async (request) => {
      const { access, mail } = await mailAccess(request, request.params.id, 'servicemail_accounts', 'read');
      return { data: { correo: toAccount(await one(mail.item_id, request.params.accountId), access.reference) } };
    });

    app.post('/service/:id/correo/create/', { schema: { ...params, body: MailAccountCreateForm } }, async (request) => {
      const { access, mail } = await mailAccess(request, request.params.id, 'servicemail_accounts', 'write');
      const { name, password } = request.body;
      const count = await ctx.store.selectFrom('mail_account').select((eb) => eb.fn.countAll<number>().as('n')).where('item_id', '=', mail.item_id).executeTakeFirstOrThrow();
      if (Number(count.n) >= mail.limit_accounts) throw FieldErrors.one('name', 'service.mail_limit', { limit: mail.limit_accounts });
      if (await nameTaken(ctx, mail.item_id, name)) throw FieldErrors.one('name', 'service.name_taken');
      const quota = ctx.config.hosting.mailQuotaMb * 1024 * 1024;
      const values = { item_id: mail.item_id, name, password_secret: ctx.secrets.encrypt(password), quota, created_at: now() };
      const { id, job } = await insertChild(ctx.store, 'mail_account', mail.item_id, values).catch(nameTakenAs('name'));
      return { data: { correo: toAccount(await one(mail.item_id, String(id)), access.reference) }, info: [{ key: 'service.account_created' }], job };
    });

    app.post('/service/:id/correo/:accountId/changepassword/', { schema: { ...child, body: PasswordForm } }, async (request) => {
      const { mail } = await mailAccess(request, request.params.id, 'servicemail_accounts', 'write');
      const row = await one(mail.item_id, request.params.accountId);
      const job = await changeChild(ctx.store, 'mail_account', row.id, mail.item_id, { password_secret: ctx.secrets.encrypt(request.body.password) });
      return { data: null, info: [{ key: 'service.password_changed' }], job };
    });

    app.get('/service/:id/correo/:accountId/password/', { schema: child }, async (request) => {
      const { mail } = await mailAccess(request, request.params.id, 'servicemail_accounts', 'read');
      const row = await one(mail.item_id, request.params.accountId);
      return { data: { password: ctx.secrets.decrypt(row.password_secret) } };
    });

    app.get('/service/:id/correo/:accountId/login/', { schema: child }, async (request) => {
      const { access, mail } = await mailAccess(request, request.params.id, 'servicemail_accounts', 'read');
      const row = await one(mail.item_id, request.params.accountId);
      // Roundcube's own login form fields: the browser posts them straight to the webmail.
      const form: AutoForm = {
        target: '_blank',
        method: 'post',
        action: ctx.config.hosting.webmailUrl,
        inputs: { _task: 'login', _action: 'login', _user: `${row.name}@${access.reference}`, _pass: ctx.secrets.decrypt(row.password_secret) },
      };
      return { data: form };
    });

    app.get('/service/:id/correo/:accountId/delete/', { schema: child }, async (request) => {
      const { mail } = await mailAccess(request, request.params.id, 'servicemail_accounts', 'write');
      const row = await one(mail.item_id, request.params.accountId);
      const job = await changeChild(ctx.store, 'mail_account', row.id, mail.item_id, { deleting: 1 });
      return { data: null, info: [{ key: 'service.account_deleted' }], job };
    });
  };
}
