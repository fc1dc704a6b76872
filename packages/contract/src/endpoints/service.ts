import { z } from 'zod';
import { AREAS_BY_KIND, type Area } from '../permissions.ts';
import {
  AliasCreateForm,
  AliasSaveForm,
  autoFormSchema,
  DatabaseCreateForm,
  databaseViewSchema,
  dkimKeySchema,
  errorLogLineSchema,
  FtpCreateForm,
  FtpLoginQuery,
  FtpSaveForm,
  ftpMainSchema,
  ftpUserSchema,
  MailAccountCreateForm,
  MailDeliveryForm,
  mailAccountSchema,
  mailAliasSchema,
  mailConfigSchema,
  mailHealthSchema,
  PasswordForm,
  PhpForm,
  serviceViewSchema,
  WebConstructorLoginForm,
} from '../service.ts';
import { endpoint, itemParams } from './endpoint.ts';

const service = z.object({ service: serviceViewSchema });
const ftpParams = z.object({ id: z.string(), ftpId: z.string() });
const dbParams = z.object({ id: z.string(), dbId: z.string() });
const accountParams = z.object({ id: z.string(), accountId: z.string() });
const aliasParams = z.object({ id: z.string(), aliasId: z.string() });
const read = <A extends Area>(area: A) => ({ area, level: 'read' }) as const;
const write = <A extends Area>(area: A) => ({ area, level: 'write' }) as const;
/**
 * A call that answers a working password (the password view, an auto-login form): only to those
 * who may change the credential, only in a browser session, and recorded like a change.
 */
const credential = { sessionOnly: true } as const;

/** The hosting service: main view, parking, PHP, error log, web constructor, FTP users, databases, mail. */
export const hosting = {
  get: endpoint({
    method: 'GET',
    path: '/service/:id/',
    params: itemParams,
    answer: service,
    // A user sees the main view with any area of the service; a token only when scoped to `service`
    // itself (usage, PHP and parking are not a DNS zone's or an FTP user's).
    permission: { anyOf: AREAS_BY_KIND.service, level: 'read', tokenArea: 'service' },
  }),
  parkingOn: endpoint({
    method: 'GET',
    path: '/service/:id/parking/active/',
    params: itemParams,
    answer: service,
    permission: write('service_parking'),
  }),
  parkingOff: endpoint({
    method: 'GET',
    path: '/service/:id/parking/disable/',
    params: itemParams,
    answer: service,
    permission: write('service_parking'),
  }),
  php: endpoint({
    method: 'POST',
    path: '/service/:id/php/',
    params: itemParams,
    body: PhpForm,
    answer: service,
    permission: write('service'),
  }),
  /** Measures the service's usage now (web space, mailboxes, databases): the answer carries the job. */
  usageRefresh: endpoint({
    method: 'POST',
    path: '/service/:id/usage/refresh/',
    params: itemParams,
    answer: z.null(),
    permission: read('service'),
  }),
  errorLog: endpoint({
    method: 'GET',
    path: '/service/:id/logerror/',
    params: itemParams,
    answer: z.object({ logs: z.array(errorLogLineSchema) }),
    permission: read('service'),
  }),
  webConstructor: endpoint({
    method: 'GET',
    path: '/service/:id/webconstructor/',
    params: itemParams,
    answer: z.object({ folder: z.string() }),
    permission: read('service'),
  }),
  webConstructorLogin: endpoint({
    method: 'POST',
    path: '/service/:id/webcontructorlogin/',
    params: itemParams,
    body: WebConstructorLoginForm,
    answer: z.object({ url: z.string() }),
    permission: write('service'),
  }),

  ftpMain: endpoint({
    method: 'GET',
    path: '/service/:id/ftp/main/',
    params: itemParams,
    answer: z.object({ ftp: ftpMainSchema }),
    permission: read('service_ftp'),
  }),
  ftpList: endpoint({
    method: 'GET',
    path: '/service/:id/ftp/list/',
    params: itemParams,
    answer: z.object({ ftps: z.array(ftpUserSchema) }),
    permission: read('service_ftp'),
  }),
  ftpGet: endpoint({
    method: 'GET',
    path: '/service/:id/ftp/:ftpId/',
    params: ftpParams,
    answer: z.object({ ftp: ftpUserSchema }),
    permission: read('service_ftp'),
  }),
  ftpCreate: endpoint({
    method: 'POST',
    path: '/service/:id/ftp/create/',
    params: itemParams,
    body: FtpCreateForm,
    answer: z.object({ ftp: ftpUserSchema }),
    permission: write('service_ftp'),
  }),
  ftpSave: endpoint({
    method: 'POST',
    path: '/service/:id/ftp/:ftpId/save/',
    params: ftpParams,
    body: FtpSaveForm,
    answer: z.object({ ftp: ftpUserSchema }),
    permission: write('service_ftp'),
  }),
  ftpPassword: endpoint({
    method: 'POST',
    path: '/service/:id/ftp/:ftpId/changepassword/',
    params: ftpParams,
    body: PasswordForm,
    answer: z.null(),
    permission: write('service_ftp'),
  }),
  ftpLogin: endpoint({
    method: 'GET',
    path: '/service/:id/ftp/:ftpId/login/',
    params: ftpParams,
    query: FtpLoginQuery,
    answer: autoFormSchema,
    permission: write('service_ftp'),
    ...credential,
  }),
  ftpDelete: endpoint({
    method: 'GET',
    path: '/service/:id/ftp/:ftpId/delete/',
    params: ftpParams,
    answer: z.null(),
    permission: write('service_ftp'),
  }),

  ddbbList: endpoint({
    method: 'GET',
    path: '/service/:id/ddbb/list/',
    params: itemParams,
    answer: z.object({ ddbb: z.array(databaseViewSchema) }),
    permission: read('service_ddbb'),
  }),
  /** One database with its password: the password view of the databases screen. */
  ddbbGet: endpoint({
    method: 'GET',
    path: '/service/:id/ddbb/:dbId/',
    params: dbParams,
    answer: z.object({ ddbb: databaseViewSchema.extend({ password: z.string() }) }),
    permission: write('service_ddbb'),
    ...credential,
  }),
  ddbbCreate: endpoint({
    method: 'POST',
    path: '/service/:id/ddbb/create/',
    params: itemParams,
    body: DatabaseCreateForm,
    answer: z.object({ ddbb: databaseViewSchema }),
    permission: write('service_ddbb'),
  }),
  ddbbPassword: endpoint({
    method: 'POST',
    path: '/service/:id/ddbb/:dbId/changepassword/',
    params: dbParams,
    body: PasswordForm,
    answer: z.null(),
    permission: write('service_ddbb'),
  }),
  ddbbLogin: endpoint({
    method: 'GET',
    path: '/service/:id/ddbb/:dbId/login/',
    params: dbParams,
    answer: autoFormSchema,
    permission: write('service_ddbb'),
    ...credential,
  }),
  /** The database as an SQL file (phpMyAdmin-style backup). */
  ddbbDump: endpoint({
    method: 'GET',
    path: '/service/:id/ddbb/:dbId/dump/',
    params: dbParams,
    answer: { file: 'application/sql' },
    permission: write('service_ddbb'),
  }),
  ddbbExternalAccess: endpoint({
    method: 'GET',
    path: '/service/:id/ddbb/:dbId/toggle/externalaccess/',
    params: dbParams,
    answer: z.object({ ddbb: databaseViewSchema }),
    permission: write('service_ddbb'),
  }),
  ddbbDelete: endpoint({
    method: 'GET',
    path: '/service/:id/ddbb/:dbId/delete/',
    params: dbParams,
    answer: z.null(),
    permission: write('service_ddbb'),
  }),

  /**
   * A failed change retried by its user: write on the area of the row the job applies (service
   * rows, sites, the DNS zone, a domain's registry change).
   */
  jobRetry: endpoint({
    method: 'POST',
    path: '/service/:id/job/:jobId/retry/',
    params: z.object({ id: z.string(), jobId: z.string() }),
    answer: z.null(),
    permission: {
      anyOf: [
        'servicemail_accounts',
        'servicemail_alias',
        'service_ftp',
        'service_ddbb',
        'service',
        'service_parking',
        'service_subdomains',
        'service_redirects',
        'service_dnszone',
        'domain',
        'domain_dns',
        'domain_gluerecords',
        'domain_dnssec',
        'domain_ownercontacts',
        'domain_contacts',
        'domain_others',
        'domain_transferblock',
        'domain_authcode',
      ],
      level: 'write',
    },
  }),

  mailList: endpoint({
    method: 'GET',
    path: '/service/:id/correo/list/',
    params: itemParams,
    answer: z.object({ correo: z.array(mailAccountSchema), config: mailConfigSchema }),
    permission: read('servicemail_accounts'),
  }),
  mailGet: endpoint({
    method: 'GET',
    path: '/service/:id/correo/:accountId/',
    params: accountParams,
    answer: z.object({ correo: mailAccountSchema }),
    permission: read('servicemail_accounts'),
  }),
  mailCreate: endpoint({
    method: 'POST',
    path: '/service/:id/correo/create/',
    params: itemParams,
    body: MailAccountCreateForm,
    answer: z.object({ correo: mailAccountSchema }),
    permission: write('servicemail_accounts'),
  }),
  mailChangePassword: endpoint({
    method: 'POST',
    path: '/service/:id/correo/:accountId/changepassword/',
    params: accountParams,
    body: PasswordForm,
    answer: z.null(),
    permission: write('servicemail_accounts'),
  }),
  mailPassword: endpoint({
    method: 'GET',
    path: '/service/:id/correo/:accountId/password/',
    params: accountParams,
    answer: z.object({ password: z.string() }),
    permission: write('servicemail_accounts'),
    ...credential,
  }),
  mailLogin: endpoint({
    method: 'GET',
    path: '/service/:id/correo/:accountId/login/',
    params: accountParams,
    answer: autoFormSchema,
    permission: write('servicemail_accounts'),
    ...credential,
  }),
  mailDelivery: endpoint({
    method: 'POST',
    path: '/service/:id/correo/:accountId/delivery/',
    params: accountParams,
    body: MailDeliveryForm,
    answer: z.object({ correo: mailAccountSchema }),
    permission: write('servicemail_accounts'),
  }),
  dkimList: endpoint({
    method: 'GET',
    path: '/service/:id/dkim/',
    params: itemParams,
    answer: z.object({ keys: z.array(dkimKeySchema) }),
    permission: read('servicemail'),
  }),
  /** New keys published now, signing after the record's TTL; the old ones retired then, removed later. */
  dkimRotate: endpoint({
    method: 'POST',
    path: '/service/:id/dkim/rotate/',
    params: itemParams,
    answer: z.object({ keys: z.array(dkimKeySchema) }),
    permission: write('servicemail'),
  }),
  /** The records the domain needs, as the world sees them now, and the health card's findings (decision 045). */
  mailHealth: endpoint({
    method: 'GET',
    path: '/service/:id/mail/health/',
    params: itemParams,
    answer: mailHealthSchema,
    permission: read('servicemail'),
  }),
  mailDelete: endpoint({
    method: 'GET',
    path: '/service/:id/correo/:accountId/delete/',
    params: accountParams,
    answer: z.null(),
    permission: write('servicemail_accounts'),
  }),

  aliasList: endpoint({
    method: 'GET',
    path: '/service/:id/alias/list/',
    params: itemParams,
    answer: z.object({ alias: z.array(mailAliasSchema) }),
    permission: read('servicemail_alias'),
  }),
  aliasGet: endpoint({
    method: 'GET',
    path: '/service/:id/alias/:aliasId/',
    params: aliasParams,
    answer: z.object({ alias: mailAliasSchema }),
    permission: read('servicemail_alias'),
  }),
  aliasCreate: endpoint({
    method: 'POST',
    path: '/service/:id/alias/create/',
    params: itemParams,
    body: AliasCreateForm,
    answer: z.object({ alias: mailAliasSchema }),
    permission: write('servicemail_alias'),
  }),
  aliasSave: endpoint({
    method: 'POST',
    path: '/service/:id/alias/:aliasId/save/',
    params: aliasParams,
    body: AliasSaveForm,
    answer: z.object({ alias: mailAliasSchema }),
    permission: write('servicemail_alias'),
  }),
  aliasDelete: endpoint({
    method: 'GET',
    path: '/service/:id/alias/:aliasId/delete/',
    params: aliasParams,
    answer: z.null(),
    permission: write('servicemail_alias'),
  }),
};
