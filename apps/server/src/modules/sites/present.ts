import type { Redirection, RedirectType, Subdomain } from '@atalaya/contract';
import { type AcmeView, presentAcme } from './acme/present.ts';
import type { HostBackend } from './backend.ts';
import { certificateInfo } from './certificates.ts';
import type { RedirectionRow, SiteRow } from './tables.ts';

/**
 * A site as the SPA sees it; the private key never leaves the server. `backend` is where its host
 * stands on the web server (`siteBackend`). `acme` is the free certificate's view with its job
 * (`acmeViews`); without it the row alone is shown.
 */
export function presentSite(site: SiteRow, reference: string, redirections: number, backend: HostBackend, acme?: AcmeView): Subdomain {
  const hasCert = site.cert !== '';
  return {
    id: site.id,
    subdominio: site.name,
    referencePunycode: reference,
    directorio: site.folder,
    eliminable: true,
    ssl: {
      enabled: site.ssl_enabled === 1,
      cert: { cert: site.cert, key: '', ca: site.cert_chain },
      hasKey: site.cert_key_sealed !== '',
      info: hasCert ? certificateInfo(site.cert) : null,
      source: site.cert_source === 'acme' ? 'acme' : 'upload',
      acme: acme ?? presentAcme(site, null, 'es'),
    },
    redirections,
    ...backend,
  };
}

export function presentRedirection(row: RedirectionRow, siteName: string, reference: string): Redirection {
  const host = siteName ? `${siteName}.${reference}` : reference;
  return {
    id: row.id,
    origin: `${host}${row.origin}`,
    recurso: row.origin,
    url: row.target,
    redirType: row.kind as RedirectType,
    iframeTitle: row.iframe_title,
    iframeDescription: row.iframe_description,
    iframeKeywords: row.iframe_keywords,
    subdominio: siteName,
    eliminable: true,
  };
}

/** A unique-constraint refusal on either store (a concurrent create of the same name). */
