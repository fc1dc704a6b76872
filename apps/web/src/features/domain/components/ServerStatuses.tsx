import type { DomainView } from '@atalaya/contract';
import { Alert, Badge, Group, Text } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n.ts';

/** The server statuses the panel names; any other is shown as the registry writes it. */
const KNOWN = ['serverHold', 'serverTransferProhibited', 'serverUpdateProhibited', 'serverDeleteProhibited', 'serverRenewProhibited'];

/**
 * What the registry itself holds the domain under (a suspension, a lock only it may lift): the
 * customer cannot change it here, so it is said above the rest, with each status named.
 */
export function ServerStatuses({ domain }: { domain: DomainView }) {
  const { t } = useTranslation();
  if (domain.serverStatuses.length === 0) return null;
  return (
    <Alert color="orange" title={t('domain.server_statuses')} data-testid="server-statuses">
      <Text size="sm" mb="xs">
        {t('domain.server_statuses_hint')}
      </Text>
      <Group gap="xs">
        {domain.serverStatuses.map((status) => (
          <Badge key={status} variant="outline" color="orange" title={status} data-testid={`server-status-${status}`}>
            {KNOWN.includes(status) ? t(`domain.status_${status}`) : status}
          </Badge>
        ))}
      </Group>
    </Alert>
  );
}
