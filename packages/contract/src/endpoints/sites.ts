import { z } from 'zod';
import { backendShape } from '../service.ts';
import {
  acmeRequestSchema,
  installAppSchema,
  redirectionCreateSchema,
  redirectionSaveSchema,
  subdomainCreateSchema,
  subdomainSaveSchema,
} from '../sites/schemas.ts';
import { hostingApplicationSchema, installationSchema, redirectionSchema, subdomainSchema } from '../sites/types.ts';
import { endpoint, itemParams, SIGNED_IN } from './endpoint.ts';

const siteParams = z.object({ id: z.string(), subId: z.string() });
const redirectionParams = z.object({ id: z.string(), rid: z.string() });
const subdomain = z.object({ subdomain: subdomainSchema });
const redirection = z.object({ redirection: redirectionSchema });
const installation = z.object({ installation: installationSchema });
const removed = z.object({ id: z.number() });
// A parking service has no sites: their calls answer 404 there.
const sitesRead = { area: 'service_subdomains', level: 'read', normalOnly: true } as const;
const sitesWrite = { area: 'service_subdomains', level: 'write', normalOnly: true } as const;
const redirectsRead = { area: 'service_redirects', level: 'read' } as const;
const redirectsWrite = { area: 'service_redirects', level: 'write' } as const;

/** The sites of a service (subdomains with SSL), its redirections and the application installer. */
export const sites = {
  list: endpoint({
    method: 'GET',
    path: '/service/:id/subdomain/list/',
    params: itemParams,
    answer: z.object({
      subdomains: z.array(subdomainSchema),
      /** The hosts of removed sites, as one: a failed removal leaves its host served (absent from older servers). */
      removed: z.object(backendShape).optional(),
    }),
    permission: sitesRead,
  }),
  get: endpoint({ method: 'GET', path: '/service/:id/subdomain/:subId/', params: siteParams, answer: subdomain, permission: sitesRead }),
  create: endpoint({
    method: 'POST',
    path: '/service/:id/subdomain/create/',
    params: itemParams,
    body: subdomainCreateSchema,
    answer: subdomain,
    permission: sitesWrite,
  }),
  save: endpoint({
    method: 'POST',
    path: '/service/:id/subdomain/:subId/save/',
    params: siteParams,
    body: subdomainSaveSchema,
    answer: subdomain,
    permission: sitesWrite,
  }),
  /** Switches the free certificate on (an issuance job starts) or off (the certificate stays until replaced). */
  acme: endpoint({
    method: 'POST',
    path: '/service/:id/subdomain/:subId/acme/',
    params: siteParams,
    body: acmeRequestSchema,
    answer: subdomain,
    permission: sitesWrite,
  }),
  delete: endpoint({
    method: 'GET',
    path: '/service/:id/subdomain/:subId/delete/',
    params: siteParams,
    answer: removed,
    permission: sitesWrite,
  }),

  redirectionList: endpoint({
    method: 'GET',
    path: '/service/:id/redirection/list/',
    params: itemParams,
    answer: z.object({ redirection: z.array(redirectionSchema) }),
    permission: redirectsRead,
  }),
  redirectionGet: endpoint({
    method: 'GET',
    path: '/service/:id/redirection/:rid/',
    params: redirectionParams,
    answer: redirection,
    permission: redirectsRead,
  }),
  redirectionCreate: endpoint({
    method: 'POST',
    path: '/service/:id/redirection/create/',
    params: itemParams,
    body: redirectionCreateSchema,
    answer: redirection,
    permission: redirectsWrite,
  }),
  redirectionSave: endpoint({
    method: 'POST',
    path: '/service/:id/redirection/:rid/save/',
    params: redirectionParams,
    body: redirectionSaveSchema,
    answer: redirection,
    permission: redirectsWrite,
  }),
  redirectionDelete: endpoint({
    method: 'GET',
    path: '/service/:id/redirection/:rid/delete/',
    params: redirectionParams,
    answer: removed,
    permission: redirectsWrite,
  }),

  /** The provider's application catalogue; logos live at `{token}{appId}/logo/`. */
  applications: endpoint({
    method: 'GET',
    path: '/hostingapplication/list/',
    answer: z.object({ apps: z.array(hostingApplicationSchema), token: z.string() }),
    permission: SIGNED_IN,
  }),
  /** Logos go into <img> tags, which cannot send the CSRF header; they are the provider's public artwork. */
  applicationLogo: endpoint({
    method: 'GET',
    path: '/hostingapplication/:appId/logo/',
    params: z.object({ appId: z.string() }),
    answer: { file: 'image/*' },
    permission: { public: 'read' },
  }),
  install: endpoint({
    method: 'POST',
    path: '/service/:id/installapp/',
    params: itemParams,
    body: installAppSchema,
    answer: installation,
    permission: { ...sitesWrite, alsoWrite: ['service_ftp', 'service_ddbb'] },
  }),
  installation: endpoint({
    method: 'GET',
    path: '/service/:id/installapp/:installId/',
    params: z.object({ id: z.string(), installId: z.string() }),
    answer: installation,
    permission: sitesRead,
  }),
};
