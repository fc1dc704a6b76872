import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config/config.ts';
import { createInstaller, createSitesDriver } from '../../drivers/sites/index.ts';
import type { ApplicationInstaller, SitesDriver } from '../../drivers/sites/interface.ts';
import { registerJobHandler } from '../../outbox/outbox.ts';
import type { Secrets } from '../../secrets.ts';
import type { Store } from '../../store/db.ts';
import type { Database } from '../../store/schema.ts';
import { APPLY_JOB, loadSiteState } from './state.ts';

export interface SitesContext {
  store: Store;
  config: Config;
  secrets: Secrets;
  sites: SitesDriver;
  installer: ApplicationInstaller;
}

// Handlers are registered once per process but run against whichever store claimed the job
// (tests open several apps): each store finds its own app's drivers here.
const contexts = new WeakMap<Kysely<Database>, SitesContext>();

export function createSitesContext(app: FastifyInstance): SitesContext {
  const ctx: SitesContext = {
    store: app.store,
    config: app.config,
    secrets: app.secrets,
    sites: createSitesDriver(app.config),
    installer: createInstaller(app.config),
  };
  contexts.set(app.store, ctx);
  return ctx;
}

export function sitesContextOf(db: Kysely<Database>): SitesContext {
  const ctx = contexts.get(db);
  if (!ctx) throw new Error('no sites context for this store (the app that owns it is closed)');
  return ctx;
}

/** Converges one host on what the store holds now: applied if it exists, removed if it is gone. */
registerJobHandler(APPLY_JOB, async (payload, _job, _progress, db) => {
  const { sites, secrets } = sitesContextOf(db);
  const key = String((payload as { key?: unknown }).key);
  const state = await loadSiteState(db, secrets, key);
  if (state) await sites.applySite(state);
  else await sites.removeSite(key);
});
