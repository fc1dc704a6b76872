import type { FastifyInstance } from 'fastify';
import { checkCertificate } from './certificates.ts';
import type { SiteRow } from './tables.ts';

export interface SslInput {
  SSLActive: boolean;
  cert: string;
  certkey: string;
  certchain: string;
}

export interface SslColumns {
  ssl_enabled: number;
  cert: string;
  cert_chain: string;
  cert_key_sealed: string;
  /** Set when a certificate is uploaded: it replaces a free one, whose renewal then stops. */
  cert_source?: 'upload';
  acme_enabled?: 0;
}

/**
 * The SSL columns of a site after a create or save. Empty fields keep what is stored (the key is
 * never sent back to the browser, so an edit leaves it empty); turning SSL off keeps the material
 * so turning it on again needs no new upload. Whatever is switched on is checked in full.
 */
export function resolveSsl(app: FastifyInstance, host: string, input: SslInput, existing: SiteRow | null): SslColumns {
  const stored = {
    cert: existing?.cert ?? '',
    key: existing?.cert_key_sealed ? app.runtime.secrets.decrypt(existing.cert_key_sealed) : '',
    chain: existing?.cert_chain ?? '',
  };
  const uploaded = input.cert !== '' || input.certkey !== '' || input.certchain !== '';
  if (!input.SSLActive) {
    // SSL off also stops a free certificate's renewals, which would otherwise switch it back on.
    const columns = { ssl_enabled: 0, cert: stored.cert, cert_chain: stored.chain, cert_key_sealed: existing?.cert_key_sealed ?? '' };
    return existing?.acme_enabled === 1 ? { ...columns, acme_enabled: 0 } : columns;
  }
  if (!uploaded && existing?.acme_enabled === 1) {
    // The free certificate's job switches SSL on when it installs one; until then nothing to check.
    const ready = existing.cert_source === 'acme' && stored.cert !== '' ? 1 : existing.ssl_enabled;
    return { ssl_enabled: ready, cert: stored.cert, cert_chain: stored.chain, cert_key_sealed: existing.cert_key_sealed };
  }
  if (!uploaded && existing?.ssl_enabled === 1 && stored.cert && stored.key) {
    return { ssl_enabled: 1, cert: stored.cert, cert_chain: stored.chain, cert_key_sealed: existing.cert_key_sealed };
  }
  const material = {
    cert: input.cert || stored.cert,
    key: input.certkey || stored.key,
    // A new certificate comes with its own chain (or none); otherwise the stored chain stays.
    chain: input.cert ? input.certchain : input.certchain || stored.chain,
  };
  const checked = checkCertificate(material, host).material;
  const source = input.cert ? { cert_source: 'upload' as const, acme_enabled: 0 as const } : {};
  return {
    ssl_enabled: 1,
    cert: checked.cert,
    cert_chain: checked.chain,
    cert_key_sealed: app.runtime.secrets.encrypt(checked.key),
    ...source,
  };
}
