import type { DomainAnswer } from '@atalaya/contract';
import { Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { StateBadge } from '../../../components/hosting/StateBadge.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { dnssecKey, domainKey, glueKey } from '../api/domain.ts';

/**
 * The domain's changes the registry has not applied yet (pending) or refused (failed, with its
 * reason), with the same state badge as the hosting rows: a change the registry never answered
 * comes with its job, which a writer of its area retries there. Once a change is applied, the
 * domain's lists (glue, DNSSEC) are read again: they show the registry's view.
 */
export function RegistryChanges({ data }: { data: DomainAnswer }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { id } = data.domain;
  const pending = data.changes.some((c) => c.state === 'pending');
  const { ts } = data.domain;
  const seen = useRef({ ts, pending });
  // The domain's time moves when the registry applied a change (and the last pending one ending
  // says so too): the lists read beside it may have been read before, so they are read again.
  useEffect(() => {
    const before = seen.current;
    seen.current = { ts, pending };
    if (pending || (before.ts === ts && !before.pending)) return;
    void client.invalidateQueries({ queryKey: glueKey(id) });
    void client.invalidateQueries({ queryKey: dnssecKey(id) });
  }, [client, id, ts, pending]);
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
              <StateBadge
                state={change.state}
                retry={
                  change.job !== null && {
                    itemId: id,
                    job: change.job,
                    listKey: domainKey(id),
                    name: t(`domain.change_${change.action}`),
                  }
                }
              />
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
