import type { Redirection } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { pollWhilePending } from '../../../components/hosting/StateBadge.tsx';
import { call, type FormOf, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** The site and redirection calls of docs/behaviour/service-area-dns.md#calls (Sites, Redirections). */
export const sitesKey = (serviceId: string) => ['sites', serviceId] as const;
const sites = endpoints.sites;

/**
 * The sites of a service and the state of its removed sites' hosts; polls while a change waits for
 * the web server.
 */
export const subdomainsQuery = (serviceId: string) =>
  queryOptions({
    queryKey: [...sitesKey(serviceId), 'subdomains'],
    queryFn: () => fetchData(sites.list, { id: serviceId }),
    refetchInterval: (q) => {
      const data = q.state.data;
      return pollWhilePending(data && [...data.subdomains, ...(data.removed ? [data.removed] : [])]);
    },
  });

export const redirectionsQuery = (serviceId: string) =>
  queryOptions({
    queryKey: [...sitesKey(serviceId), 'redirections'],
    queryFn: () => fetchData(sites.redirectionList, { id: serviceId }).then((d) => d.redirection),
  });

export interface SiteForm {
  subDomain: string;
  folder: string;
  ssl: boolean;
  cert: string;
  certkey: string;
  certchain: string;
}

/** Certificates travel as files (multipart), as the contract says; an empty field keeps what is stored. */
const pemFile = (text: string, name: string) =>
  text.trim() ? new File([text], `${name}.pem`, { type: 'application/x-pem-file' }) : undefined;

function siteFields(form: SiteForm): FormOf<typeof sites.save> {
  return {
    folder: form.folder,
    SSLActive: form.ssl ? '1' : '0',
    cert: form.ssl ? pemFile(form.cert, 'cert') : undefined,
    certkey: form.ssl ? pemFile(form.certkey, 'key') : undefined,
    certchain: form.ssl ? pemFile(form.certchain, 'chain') : undefined,
  };
}

export const createSite = (serviceId: string, form: SiteForm) =>
  call(sites.create, { id: serviceId }, { subDomain: form.subDomain, ...siteFields(form) });

export const saveSite = (serviceId: string, siteId: number, form: SiteForm) =>
  call(sites.save, { id: serviceId, subId: siteId }, siteFields(form));

/** One site, as the free certificate's progress is followed (polled while its issuance runs). */
export const siteQuery = (serviceId: string, siteId: number) =>
  queryOptions({
    queryKey: [...sitesKey(serviceId), 'subdomain', siteId],
    queryFn: () => fetchData(sites.get, { id: serviceId, subId: siteId }).then((d) => d.subdomain),
  });

/** The free-certificate switch: on starts an issuance job, off stops renewals (the certificate stays). */
export const switchAcme = (serviceId: string, siteId: number, active: boolean, wildcard: boolean) =>
  call(sites.acme, { id: serviceId, subId: siteId }, { active: active ? '1' : '0', wildcard: wildcard ? '1' : '0' });

export const deleteSite = (serviceId: string, siteId: number) => call(sites.delete, { id: serviceId, subId: siteId });

export interface RedirectionForm {
  subDomain: string;
  recurso: string;
  urlRedir: string;
  redirType: Redirection['redirType'];
  iframeTitle: string;
  iframeDescription: string;
  iframeKeywords: string;
}

const targetFields = (form: RedirectionForm): FormOf<typeof sites.redirectionSave> => ({
  urlRedir: form.urlRedir,
  redirType: form.redirType,
  iframeTitle: form.redirType === 'frame' ? form.iframeTitle : '',
  iframeDescription: form.redirType === 'frame' ? form.iframeDescription : '',
  iframeKeywords: form.redirType === 'frame' ? form.iframeKeywords : '',
});

export const createRedirection = (serviceId: string, form: RedirectionForm) =>
  call(
    sites.redirectionCreate,
    { id: serviceId },
    {
      subDomain: form.subDomain,
      recurso: form.recurso,
      ...targetFields(form),
    },
  );

export const saveRedirection = (serviceId: string, id: number, form: RedirectionForm) =>
  call(sites.redirectionSave, { id: serviceId, rid: id }, targetFields(form));

export const deleteRedirection = (serviceId: string, id: number) => call(sites.redirectionDelete, { id: serviceId, rid: id });
