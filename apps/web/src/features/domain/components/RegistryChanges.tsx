import type { DomainAnswer } from '@atalaya/contract';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { StateBadge } from '../../../components/hosting/StateBadge.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { domainKey } from '../api/domain.ts';

/**
 * The domain's changes the registry has not applied yet (pending) or refused (failed, with its
 * reason), with the same state badge as the hosting rows. When the last pending one is done, the
 * domain's lists (glue, DNSSEC) are read again: they show the registry's view.
 */
export function RegistryChanges({ data }: { data: DomainAnswer }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { id } = data.domain;
  const pending = data.changes.some((c) => c.state === 'pending');
  const was = useRef(pending);
  useEffect(() => {
    if (was.current && !pending) void client.invalidateQueries({ queryKey: domainKey(id) });
    was.current = pending;
  }, [client, id, pending]);
  if (data.changes.length === 0) return null;
  return (
    <Card withBorder data-testid="registry-changes">
      <Title order={2} size="h4" mb="sm">
        {t('domain.changes')}
      </Title>
      <Stack gap="xs">
        {data.changes.map((change) => (
          <div key={change.id} data-testid={`change-${change.action}`}>
            <Group gap={0}>
              <Text>{t(`domain.change_${change.action}`)}</Text>
              <StateBadge state={change.state} />
            </Group>
            {change.message && (
              <Text size="sm" c="red">
                {change.message}
              </Text>
            )}
          </div>
        ))}
      </Stack>
    </Card>
  );
}
