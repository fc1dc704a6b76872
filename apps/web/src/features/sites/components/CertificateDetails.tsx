import type { Subdomain } from '@atalaya/contract';
import { Badge, Group, Text } from '@mantine/core';
import { formatDate } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';

/** The issuer's common name, else the whole issuer line. */
const issuerName = (issuer: string) => /(?:^|, )CN=([^,]+)/.exec(issuer)?.[1] ?? issuer;

/** A site's certificate on its card: where it came from, issuer, names and validity, and the next renewal of a free one. */
export function CertificateDetails({ site }: { site: Subdomain }) {
  const { t, i18n } = useTranslation();
  const info = site.ssl.info;
  if (!info) return null;
  const date = (ts: number) => formatDate(ts, i18n.language);
  return (
    <Group gap="xs" data-testid="certificate-details">
      <Badge variant="outline" color={site.ssl.source === 'acme' ? 'teal' : 'gray'}>
        {site.ssl.source === 'acme' ? t('sites.cert_source_acme') : t('sites.cert_source_upload')}
      </Badge>
      <Text size="xs" c="dimmed" className="break-anywhere">
        {t('sites.cert_details', {
          issuer: issuerName(info.issuer),
          names: info.names.join(', '),
          from: date(info.validFrom),
          to: date(info.validTo),
        })}
        {site.ssl.acme.renewAt ? ` ${t('sites.cert_renews', { date: date(site.ssl.acme.renewAt) })}` : ''}
      </Text>
    </Group>
  );
}
