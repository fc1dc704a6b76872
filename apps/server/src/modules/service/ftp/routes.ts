import { type AutoForm, endpoints, type FtpUser, LIMITS, normaliseFolder } from '@atalaya/contract';
import type { FastifyInstance } from 'fastify';
import { noteChanges } from '../../../http/actor.ts';
import { FieldErrors } from '../../../http/errors.ts';
import { route } from '../../../http/route.ts';
import { backendFields, type JobNode, withJobNode } from '../../../kernel/job-state.ts';
import { now } from '../../../store/db.ts';
import { changeChild, insertChild } from '../jobs.ts';
import { liveChild, nameTakenAs } from '../state.ts';

type Row = {
  id: number;
  name: string;
  login: string;
  folder: string;
  deleting: number;
  job_id: number | null;
  job_status: string | null;
} & JobNode;

const toFtp = (row: Row): FtpUser => ({
  id: row.id,
  user: row.login,
  name: row.name,
  directorio: row.folder,
  ...backendFields(row),
});

/** FTP users: /service/{id}/ftp/…; logins are name.reference, homes stay inside the web root. */
export default async function ftpRoutes(app: FastifyInstance) {
  const { store, secrets, config } = app.runtime;
  const rows = (itemId: number) =>
    store
      .selectFrom('ftp_user as f')
      .leftJoin('job', 'job.id', 'f.job_id')
      .$call(withJobNode)
      .select(['f.id', 'f.name', 'f.login', 'f.folder', 'f.password_secret', 'f.deleting', 'f.job_id', 'job.status as job_status'])
      .where('f.item_id', '=', itemId);
  const one = (itemId: number, id: string) => liveChild(rows(itemId), 'f', id);

  route(app, endpoints.service.ftpMain, async (request) => {
    const { access } = request;
    const ref = access.reference;
    return { data: { ftp: { server: `ftp.${ref}`, reference: ref, suffix: `.${ref}`, maxUser: LIMITS.ftpUserMax, webFtp: true } } };
  });

  route(app, endpoints.service.ftpList, async (request) => {
    const { service } = request.access;
    return { data: { ftps: (await rows(service.item_id).orderBy('f.name').execute()).map(toFtp) } };
  });

  route(app, endpoints.service.ftpGet, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.ftpId);
    return { data: { ftp: toFtp(row) } };
  });

  route(app, endpoints.service.ftpCreate, async (request) => {
    const { access } = request;
    const { service } = access;
    const { ftpUser, password, folder } = request.body;
    const login = `${ftpUser}.${access.reference}`;
    const taken = await store.selectFrom('ftp_user').select('id').where('login', '=', login).executeTakeFirst();
    if (taken) throw FieldErrors.one('ftpUser', 'service.name_taken');
    const values = {
      item_id: service.item_id,
      name: ftpUser,
      login,
      folder,
      password_secret: secrets.encrypt(password),
      created_at: now(),
    };
    const { id, job } = await insertChild(store, 'ftp_user', service.item_id, values).catch(nameTakenAs('ftpUser'));
    return { data: { ftp: toFtp(await one(service.item_id, String(id))) }, info: [{ key: 'service.ftp_created' }], job };
  });

  route(app, endpoints.service.ftpSave, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.ftpId);
    const job = await changeChild(store, 'ftp_user', row.id, service.item_id, { folder: request.body.folder });
    return { data: { ftp: toFtp(await one(service.item_id, String(row.id))) }, info: [{ key: 'service.ftp_saved' }], job };
  });

  route(app, endpoints.service.ftpPassword, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.ftpId);
    const job = await changeChild(store, 'ftp_user', row.id, service.item_id, {
      password_secret: secrets.encrypt(request.body.password),
    });
    return { data: null, info: [{ key: 'service.password_changed' }], job };
  });

  route(app, endpoints.service.ftpLogin, async (request) => {
    const { access } = request;
    const { service } = access;
    const row = await one(service.item_id, request.params.ftpId);
    // Disclosing a credential is recorded like a change: which one, never its value.
    noteChanges(request, null, { ftpUser: row.login });
    const directory = normaliseFolder(request.query.initialDirectory ?? '');
    if (directory === null) throw FieldErrors.one('initialDirectory', 'service.folder_invalid');
    const form: AutoForm = {
      target: '_blank',
      method: 'post',
      action: config.hosting.webFtpUrl,
      inputs: {
        server: `ftp.${access.reference}`,
        username: row.login,
        password: secrets.decrypt(row.password_secret),
        directory: `/${directory}`,
      },
    };
    return { data: form };
  });

  route(app, endpoints.service.ftpDelete, async (request) => {
    const { service } = request.access;
    const row = await one(service.item_id, request.params.ftpId);
    const job = await changeChild(store, 'ftp_user', row.id, service.item_id, { deleting: 1 });
    return { data: null, info: [{ key: 'service.ftp_deleted' }], job };
  });
}
