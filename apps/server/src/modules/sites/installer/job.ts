import { InstallRefused } from '../../../drivers/installer/interface.ts';
import { installerOptions, packageOf } from '../../../drivers/installer/options.ts';
import type { Runtime } from '../../../kernel/runtime.ts';
import { type JobHandlers, withTimeLimit } from '../../../outbox/outbox.ts';
import { PermanentJobError } from '../../../outbox/permanent.ts';
import { loadCatalogue } from '../catalogue.ts';

export const INSTALL_JOB = 'sites.install';

export interface InstallPayload {
  installationId: number;
  /** The config inputs (admin passwords among them), sealed: the job table never holds them in clear. */
  sealed: string;
  /** The user confirmed replacing what the target folder holds. */
  overwrite?: boolean;
}

/** What an installation may take beyond its download: unpacking and the application's own installer. */
const BEYOND_DOWNLOAD_SECONDS = 15 * 60;

/** The message key a permanent failure is shown with: the installer's own, else a path it refused (InvalidName). */
const refusalKey = (error: PermanentJobError) => (error instanceof InstallRefused ? error.key : 'sites.folder_invalid');

/**
 * Runs one installation. A refusal (target not empty, database gone, a folder that leaves the web
 * root through a link, an unsafe package) is recorded on the installation and ends the job failed
 * at once; anything else is thrown as it is, so the outbox retries.
 */
export const installJob = (runtime: Runtime): JobHandlers => ({
  [INSTALL_JOB]: withTimeLimit(
    Math.ceil(installerOptions(runtime.config).downloadTimeoutMs / 1000) + BEYOND_DOWNLOAD_SECONDS,
    async (raw, _job, progress, signal) => {
      const { store: db, secrets, config } = runtime;
      const installer = runtime.drivers.installer;
      const payload = raw as InstallPayload;
      const row = await db
        .selectFrom('installation')
        .innerJoin('item', 'item.id', 'installation.service_id')
        .selectAll('installation')
        .select('item.reference')
        .where('installation.id', '=', payload.installationId)
        .executeTakeFirst();
      if (!row) return;
      const refuse = async (key: string, error: PermanentJobError = new PermanentJobError(key)) => {
        await db.updateTable('installation').set({ error: key }).where('id', '=', row.id).execute();
        throw error;
      };
      const app = loadCatalogue(config).byId.get(row.app_id);
      if (!app) return refuse('sites.app_unknown');
      const options = installerOptions(config);
      const source = packageOf(options, app.key);
      if (!source) return refuse('sites.app_unavailable');
      let database = null;
      if (row.database_id !== null) {
        const found = await db
          .selectFrom('service_database')
          .leftJoin('job', 'job.id', 'service_database.job_id')
          .select([
            'service_database.name',
            'service_database.username',
            'service_database.password_secret',
            'service_database.deleting',
            'job.status',
          ])
          .where('service_database.id', '=', row.database_id)
          .where('service_database.item_id', '=', row.service_id)
          .executeTakeFirst();
        if (!found || found.deleting) return refuse('sites.database_gone');
        // A database created just before the install may still be on its way to the server.
        if (found.status && found.status !== 'done') throw new Error('the database is not created yet');
        database = { name: found.name, user: found.username, password: secrets.decrypt(found.password_secret), host: options.databaseHost };
      }
      const { values } = JSON.parse(secrets.decrypt(payload.sealed)) as { values: Record<string, string> };
      try {
        await installer.install(
          {
            installationId: row.id,
            reference: row.reference,
            directory: row.directory,
            url: row.url,
            application: { key: app.key, softName: app.softName, version: app.version, recipe: app.recipe, archiveRoot: app.archiveRoot },
            package: source,
            inputs: values,
            overwrite: payload.overwrite === true,
            database,
          },
          progress,
          signal,
        );
      } catch (error) {
        if (error instanceof PermanentJobError) return refuse(refusalKey(error), error);
        throw error;
      }
    },
  ),
});
