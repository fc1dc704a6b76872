import type { Redirection, Subdomain } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { call, type Fields, get } from '../../../lib/api.ts';

/** The site and redirection calls of spec §7 (Subdomains, Redirections). */
export const sitesKey = (serviceId: string) => ['sites', serviceId] as const;

export const subdomainsQuery = (serviceId: string) =>
  queryOptions({
    queryKey: [...sitesKey(serviceId), 'subdomains'],
    queryFn: () => get<{ subdomains: Subdomain[] }>(`service/${serviceId}/subdomain/list/`).then((d) => d.subdomains),
  });

export const redirectionsQuery = (serviceId: string) =>
  queryOptions({
    queryKey: [...sitesKey(serviceId), 'redirections'],
    queryFn: () => get<{ redirection: Redirection[] }>(`service/${serviceId}/redirection/list/`).then((d) => d.redirection),
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
const pemFile = (text: string, name: string) => (text.trim() ? new File([text], `${name}.pem`, { type: 'application/x-pem-file' }) : undefined);

function siteFields(form: SiteForm): Fields {
  return {
    folder: form.folder,
    SSLActive: form.ssl ? '1' : '0',
    cert: form.ssl ? pemFile(form.cert, 'cert') : undefined,
    certkey: form.ssl ? pemFile(form.certkey, 'key') : undefined,
    certchain: form.ssl ? pemFile(form.certchain, 'chain') : undefined,
  };
}

export const createSite = (serviceId: string, form: SiteForm) =>
  call<{ subdomain: Subdomain }>('POST', `service/${serviceId}/subdomain/create/`, { subDomain: form.subDomain, ...siteFields(form) });

export const saveSite = (serviceId: string, siteId: number, form: SiteForm) =>
  call<{ subdomain: Subdomain }>('POST', `service/${serviceId}/subdomain/${siteId}/save/`, siteFields(form));

export const deleteSite = (serviceId: string, siteId: number) => call<unknown>('GET', `service/${serviceId}/subdomain/${siteId}/delete/`);

export interface RedirectionForm {
  subDomain: string;
  recurso: string;
  urlRedir: string;
  redirType: Redirection['redirType'];
  iframeTitle: string;
  iframeDescription: string;
  iframeKeywords: string;
}

const targetFields = (form: RedirectionForm): Fields => ({
  urlRedir: form.urlRedir,
  redirType: form.redirType,
  iframeTitle: form.redirType === 'frame' ? form.iframeTitle : '',
  iframeDescription: form.redirType === 'frame' ? form.iframeDescription : '',
  iframeKeywords: form.redirType === 'frame' ? form.iframeKeywords : '',
});

export const createRedirection = (serviceId: string, form: RedirectionForm) =>
  call<{ redirection: Redirection }>('POST', `service/${serviceId}/redirection/create/`, { subDomain: form.subDomain, recurso: form.recurso, ...targetFields(form) });

export const saveRedirection = (serviceId: string, id: number, form: RedirectionForm) =>
  call<{ redirection: Redirection }>('POST', `service/${serviceId}/redirection/${id}/save/`, targetFields(form));

export const deleteRedirection = (serviceId: string, id: number) => call<unknown>('GET', `service/${serviceId}/redirection/${id}/delete/`);
