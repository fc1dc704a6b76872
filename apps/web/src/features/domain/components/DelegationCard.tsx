import { Card, Stack, Text, Title } from '@mantine/core';
import { DelegationCheck } from '../../../components/hosting/DelegationCheck.tsx';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';

/**
 * The delegation check on the domain screen, when the panel also hosts the domain's zone (and the
 * user may see it): the same findings and fixes as on the zone screen, where most of the fixes are
 * made on this screen (name servers, DNSSEC records).
 */
export function DelegationCard({ id, name }: { id: number; name: string }) {
  const { t } = useTranslation();
  const { data: item, canCall } = usePermissions(id);
  if (!item?.hasService || !canCall(endpoints.dns.check)) return null;
  return (
    <Card withBorder data-testid="domain-delegation">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t('domain.delegation')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('domain.delegation_hint', { zone: name })}
        </Text>
        <DelegationCheck serviceId={id} />
      </Stack>
    </Card>
  );
}
