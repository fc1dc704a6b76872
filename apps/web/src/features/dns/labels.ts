import type { DnsType } from '@atalaya/contract';
import type { TFunction } from '../../lib/i18n.ts';

type T = TFunction;

/** TTL seconds as the list shows them: 0 is the provider's default. */
export function ttlLabel(t: T, ttl: number): string {
  if (ttl === 0) return t('dns.ttl_default');
  if (ttl === 86400) return t('dns.ttl_day');
  if (ttl % 3600 === 0) return t('dns.ttl_hours', { count: ttl / 3600 });
  if (ttl % 60 === 0) return t('dns.ttl_minutes', { count: ttl / 60 });
  return `${ttl} s`;
}

/** The value placeholder by type (docs/behaviour/service-area-dns.md#validation). */
export function valuePlaceholder(t: T, type: DnsType): string {
  switch (type) {
    case 'AAAA':
      return t('dns.ph_ipv6');
    case 'ANAME':
    case 'CNAME':
      return t('dns.ph_host');
    case 'MX':
      return t('dns.ph_mail');
    case 'TXT':
      return t('dns.ph_text');
    case 'NS':
      return t('dns.ph_dns');
    case 'CAA':
      return t('dns.ph_caa');
    case 'SRV':
      return t('dns.ph_value');
    default:
      return t('dns.ph_ip');
  }
}
