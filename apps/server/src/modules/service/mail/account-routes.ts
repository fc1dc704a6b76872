import { type AutoForm, endpoints, type MailAccount } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { noteChanges } from '../../../http/actor.ts';
import { FieldErrors } from '../../../http/errors.ts';
import { route } from '../../../http/route.ts';
import { backendFields, type JobNode, withJobNode } from '../../../kernel/job-state.ts';
import { now } from '../../../store/db.ts';
import { changeChild, insertChild } from '../jobs.ts';
import { liveChild, nameTakenAs } from '../state.ts';
import { autoresponderOf, forwardOf } from './mailbox.ts';
import { mailConfig, nameTaken } from './shared.ts';

type Row = {
  id: number;
  name: string;
  quota: number;
  used: number;
  autoresponder: string | null;
  forward_to: string;
  forward_keep: number;
  deleting: number;
  job_id: number | null;
  job_status: string | null;
} & JobNode;

const toAccount = (row: Row, reference: string): MailAccount => ({
  id: row.id,
  user: `${row.name}@${reference}`,
  name: row.name,
  quota: row.quota,
  usage: row.used,
  autoresponder: autoresponderOf(row),
  forward: forwardOf(row),
  ...backendFields(row),
});

/** Mail accounts: /service/{id}/correo/… */
export default async function accountRoutes(app: FastifyInstance) {
  const { runtime } = app;
  const { store, secrets, config } = runtime;
  const rows = (itemId: number) =>
    store
      .selectFrom('mail_account as a')
      .leftJoin('job', 'job.id', 'a.job_id')
      .$call(withJobNode)
      .select([
        'a.id',
        'a.name',
        'a.quota',
        'a.used',
        'a.autoresponder',
        'a.forward_to',
        'a.forward_keep',
        'a.deleting',
        'a.job_id',
        'a.password_secret',
        'job.status as job_status',
      ])
      .where('a.item_id', '=', itemId);
  const one = (itemId: number, id: string) => liveChild(rows(itemId), 'a', id);

  route(app, endpoints.service.mailList, async (request) => {
    const { access } = request;
    const { mail } = access;
    const list = await rows(mail.item_id).orderBy('a.name').execute();
    return { data: { correo: list.map((r) => toAccount(r, access.reference)), config: mailConfig(runtime, access.reference) } };
  });

  route(app, endpoints.service.mailGet, async (request) => {
    const { access } = request;
    const { mail } = access;
    return { data: { correo: toAccount(await one(mail.item_id, request.params.accountId), access.reference) } };
  });

  route(app, endpoints.service.mailCreate, async (request) => {
    const { access } = request;
    const { mail } = access;
    const { name, password } = request.body;
    const count = await store
      .selectFrom('mail_account')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('item_id', '=', mail.item_id)
      .executeTakeFirstOrThrow();
    if (Number(count.n) >= mail.limit_accounts) throw FieldErrors.one('name', 'service.mail_limit', { limit: mail.limit_accounts });
    if (await nameTaken(runtime, mail.item_id, name)) throw FieldErrors.one('name', 'service.name_taken');
    const quota = config.hosting.mailQuotaMb * 1024 * 1024;
    const values = { item_id: mail.item_id, name, password_secret: secrets.encrypt(password), quota, created_at: now() };
    const { id, job } = await insertChild(store, 'mail_account', mail.item_id, values).catch(nameTakenAs('name'));
    noteChanges(request, null, { account: name, quota, password });
    return {
      data: { correo: toAccount(await one(mail.item_id, String(id)), access.reference) },
      info: [{ key: 'service.account_created' }],
      job,
    };
  });

  route(app, endpoints.service.mailChangePassword, async (request) => {
    const { mail } = request.access;
    const row = await one(mail.item_id, request.params.accountId);
    const job = await changeChild(store, 'mail_account', row.id, mail.item_id, {
      password_secret: secrets.encrypt(request.body.password),
    });
    // Which account, and that its password changed; the password itself is redacted.
    noteChanges(request, { account: row.name, password: 'old' }, { account: row.name, password: 'new' }, ['account']);
    return { data: null, info: [{ key: 'service.password_changed' }], job };
  });

  route(app, endpoints.service.mailDelivery, async (request) => {
    const { access } = request;
    const { mail } = access;
    const row = await one(mail.item_id, request.params.accountId);
    const b = request.body;
    const own = `${row.name}@${access.reference}`;
    // Forwarding to itself would loop through Sieve's redirect.
    if (b.forwardTo.includes(own)) throw FieldErrors.one('forwardTo', 'service.forward_self');
    const autoresponder = b.autoreply
      ? {
          subject: b.autoreplySubject,
          text: b.autoreplyText,
          start: b.autoreplyStart || null,
          end: b.autoreplyEnd || null,
          days: b.autoreplyDays,
        }
      : null;
    const values = {
      quota: b.quotaMb * 1024 * 1024,
      autoresponder: autoresponder && JSON.stringify(autoresponder),
      forward_to: b.forwardTo.join(','),
      forward_keep: b.forwardKeep ? 1 : 0,
    } as const;
    const job = await changeChild(store, 'mail_account', row.id, mail.item_id, values);
    noteChanges(
      request,
      { account: row.name, quota: row.quota, autoresponder: autoresponderOf(row), forward: forwardOf(row) },
      { account: row.name, quota: values.quota, autoresponder, forward: forwardOf(values) },
      ['account'],
    );
    return {
      data: { correo: toAccount(await one(mail.item_id, String(row.id)), access.reference) },
      info: [{ key: 'service.delivery_saved' }],
      job,
    };
  });

  route(app, endpoints.service.mailPassword, async (request) => {
    const { mail } = request.access;
    const row = await one(mail.item_id, request.params.accountId);
    // Disclosing a credential is recorded like a change: which one, never its value.
    noteChanges(request, null, { account: row.name });
    return { data: { password: secrets.decrypt(row.password_secret) } };
  });

  route(app, endpoints.service.mailLogin, async (request) => {
    const { access } = request;
    const { mail } = access;
    const row = await one(mail.item_id, request.params.accountId);
    // Disclosing a credential is recorded like a change: which one, never its value.
    noteChanges(request, null, { account: row.name });
    // Roundcube's own login form fields: the browser posts them straight to the webmail.
    const form: AutoForm = {
      target: '_blank',
      method: 'post',
      action: config.hosting.webmailUrl,
      inputs: {
        _task: 'login',
        _action: 'login',
        _user: `${row.name}@${access.reference}`,
        _pass: secrets.decrypt(row.password_secret),
      },
    };
    return { data: form };
  });

  route(app, endpoints.service.mailDelete, async (request) => {
    const { mail } = request.access;
    const row = await one(mail.item_id, request.params.accountId);
    const job = await changeChild(store, 'mail_account', row.id, mail.item_id, { deleting: 1 });
    noteChanges(request, { account: row.name, quota: row.quota }, null);
    return { data: null, info: [{ key: 'service.account_deleted' }], job };
  });
}
