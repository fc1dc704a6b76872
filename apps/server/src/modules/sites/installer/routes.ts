import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API_BASE, endpoints, type Installation, type InstallStatus, normaliseFolder, translate } from '@atalaya/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { installerOptions, packageOf } from '../../../drivers/installer/options.ts';
import { FieldErrors, notFound } from '../../../http/errors.ts';
import { pathId } from '../../../http/ids.ts';
import { requestLanguage } from '../../../http/language.ts';
import { route } from '../../../http/route.ts';
import { enqueue } from '../../../outbox/outbox.ts';
import { now } from '../../../store/db.ts';
import { loadCatalogue, presentApplication } from '../catalogue.ts';
import { readConfigInputs } from './inputs.ts';
import { INSTALL_JOB, type InstallPayload } from './job.ts';

/** Where the SPA finds logos: `{token}{appId}/logo/` (docs/behaviour/service-area-dns.md#calls). */
const LOGO_TOKEN = `${API_BASE.slice(0, -1)}${endpoints.sites.applicationLogo.path.split(':appId')[0]}`;

type InstallationRow = {
  id: number;
  app_id: number;
  site_id: number;
  url: string;
  error: string | null;
  status: string | null;
  progress: number | null;
  last_error: string | null;
};

function presentInstallation(request: FastifyRequest, row: InstallationRow, fullName: string): Installation {
  const language = requestLanguage(request);
  const status: InstallStatus = row.error ? 'failed' : ((row.status as InstallStatus | null) ?? 'pending');
  let error: string | null = null;
  if (row.error) error = translate(language, row.error);
  else if (status === 'failed') error = translate(language, 'sites.install_failed', { error: (row.last_error ?? '').slice(0, 300) });
  return {
    id: row.id,
    applicationID: row.app_id,
    fullName,
    subdomainID: row.site_id,
    url: row.url,
    status,
    progress: status === 'done' ? 100 : (row.progress ?? 0),
    error,
  };
}

/** Applications: the provider's catalogue, and installs run as outbox jobs the SPA follows. */
export default async function installerRoutes(app: FastifyInstance) {
  const { store, config, secrets } = app.runtime;
  const catalogue = () => loadCatalogue(config);

  route(app, endpoints.sites.applications, async (request) => {
    const language = requestLanguage(request);
    return {
      data: {
        apps: catalogue().applications.map((a) => presentApplication(a, language, packageOf(installerOptions(config), a.key) !== null)),
        token: LOGO_TOKEN,
      },
    };
  });

  // Logos go into <img> tags, which cannot send the CSRF header; they are the provider's public artwork.
  route(app, endpoints.sites.applicationLogo, async (request, reply) => {
    const entry = catalogue().byId.get(pathId(request.params.appId));
    if (!entry) throw notFound();
    const file = readFileSync(path.join(catalogue().dir, entry.logo));
    const type = entry.logo.endsWith('.svg') ? 'image/svg+xml' : 'image/png';
    // An SVG opened on its own must not run anything.
    return reply.type(type).header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox").send(file);
  });

  route(app, endpoints.sites.install, async (request) => {
    const { access } = request;
    const { subdomainID, applicationID, mysqlID, subpath, overwrite } = request.body;
    const site = await store
      .selectFrom('site')
      .selectAll()
      .where('id', '=', subdomainID)
      .where('service_id', '=', access.itemId)
      .executeTakeFirst();
    if (!site) throw notFound();
    const entry = catalogue().byId.get(applicationID);
    if (!entry) throw FieldErrors.one('applicationID', 'sites.app_unknown');
    if (!packageOf(installerOptions(config), entry.key)) throw FieldErrors.one('applicationID', 'sites.app_unavailable');
    let databaseId: number | null = null;
    if (entry.isBBDDApplication) {
      if (mysqlID === null) throw FieldErrors.one('mysqlID', 'sites.database_required');
      const db = await store
        .selectFrom('service_database')
        .select('id')
        .where('id', '=', mysqlID)
        .where('item_id', '=', access.itemId)
        .where('deleting', '=', 0)
        .executeTakeFirst();
      if (!db) throw notFound();
      databaseId = db.id;
    }
    const sub = normaliseFolder(subpath);
    if (sub === null) throw FieldErrors.one('subpath', 'sites.folder_invalid');
    const inputs = readConfigInputs(entry, request.body);
    const directory = [site.folder, sub].filter(Boolean).join('/');
    const busy = await store
      .selectFrom('installation')
      .leftJoin('job', 'job.id', 'installation.job_id')
      .select('installation.id')
      .where('installation.service_id', '=', access.itemId)
      .where('installation.directory', '=', directory)
      .where('installation.error', 'is', null)
      .where((eb) => eb.or([eb('job.status', 'is', null), eb('job.status', '!=', 'failed')]))
      .executeTakeFirst();
    if (busy) throw FieldErrors.one('subpath', 'sites.install_exists');
    const url = `${site.ssl_enabled ? 'https' : 'http'}://${site.name}.${access.reference}/${sub ? `${sub}/` : ''}`;
    const sealed = secrets.encrypt(JSON.stringify({ values: inputs.values }));
    const { row, job } = await store.transaction().execute(async (trx) => {
      const row = await trx
        .insertInto('installation')
        .values({
          service_id: access.itemId,
          site_id: site.id,
          app_id: entry.id,
          directory,
          url,
          database_id: databaseId,
          created_at: now(),
        })
        .returning(['id', 'app_id', 'site_id', 'url', 'error'])
        .executeTakeFirstOrThrow();
      const job = await enqueue(trx, INSTALL_JOB, { installationId: row.id, sealed, overwrite } satisfies InstallPayload, access.itemId);
      await trx.updateTable('installation').set({ job_id: job }).where('id', '=', row.id).execute();
      return { row, job };
    });
    const installation = presentInstallation(request, { ...row, status: 'pending', progress: 0, last_error: null }, entry.fullName);
    return { data: { installation }, info: [{ key: 'sites.install_started' }], job };
  });

  route(app, endpoints.sites.installation, async (request) => {
    const { access } = request;
    const row = await store
      .selectFrom('installation')
      .leftJoin('job', 'job.id', 'installation.job_id')
      .select([
        'installation.id',
        'installation.app_id',
        'installation.site_id',
        'installation.url',
        'installation.error',
        'job.status',
        'job.progress',
        'job.last_error',
      ])
      .where('installation.id', '=', pathId(request.params.installId))
      .where('installation.service_id', '=', access.itemId)
      .executeTakeFirst();
    if (!row) throw notFound();
    const fullName = catalogue().byId.get(row.app_id)?.fullName ?? '';
    return { data: { installation: presentInstallation(request, row, fullName) } };
  });
}
