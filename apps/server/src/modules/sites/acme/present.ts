import { type AcmeStatus, acmeStepOf, type Language, type Subdomain, translate } from '@atalaya/contract';
import type { FastifyRequest } from 'fastify';
import { requestLanguage } from '../../../http/language.ts';
import type { SiteRow } from '../tables.ts';
import { storedRefusal } from './problems.ts';

export type AcmeView = Subdomain['ssl']['acme'];
interface JobFacts {
  status: string;
  progress: number;
  last_error: string | null;
}

/** What the SSL dialog shows of a site's free certificate, from the site and its issuance job. */
export function presentAcme(site: SiteRow, job: JobFacts | null, language: Language): AcmeView {
  const refusal = storedRefusal(site.acme_error);
  let status: AcmeStatus = 'off';
  let error: string | null = null;
  if (site.acme_enabled === 1) {
    if (job && (job.status === 'pending' || job.status === 'running')) status = 'working';
    else if (refusal) status = 'failed';
    else if (job?.status === 'failed') status = 'failed';
    else status = site.cert_source === 'acme' ? 'done' : 'working';
  }
  if (status === 'failed') {
    error = refusal
      ? translate(language, refusal.key, refusal.params)
      : translate(language, 'sites.acme_error_transient', { detail: (job?.last_error ?? '').slice(0, 300) });
  }
  return {
    enabled: site.acme_enabled === 1,
    wildcard: site.acme_wildcard === 1,
    status,
    step: job ? (job.status === 'done' ? 'installation' : acmeStepOf(job.progress)) : null,
    error,
    renewAt: site.acme_enabled === 1 && site.cert_source === 'acme' ? site.acme_renew_at : null,
  };
}

/** The free-certificate view of each site, with their issuance jobs read in one query. */
export async function acmeViews(request: FastifyRequest, sites: SiteRow[]): Promise<Map<number, AcmeView>> {
  const ids = sites.map((s) => s.acme_job_id).filter((id): id is number => id !== null);
  const jobs = ids.length
    ? await request.server.runtime.store
        .selectFrom('job')
        .select(['id', 'status', 'progress', 'last_error'])
        .where('id', 'in', ids)
        .execute()
    : [];
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const language = requestLanguage(request);
  return new Map(sites.map((s) => [s.id, presentAcme(s, s.acme_job_id === null ? null : (byId.get(s.acme_job_id) ?? null), language)]));
}
