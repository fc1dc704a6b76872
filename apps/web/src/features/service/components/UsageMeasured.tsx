import type { ServiceView } from '@atalaya/contract';
import { Button, Group, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { refreshUsage, serviceQuery } from '../api/service.ts';

const POLL_MS = 1000;
const POLL_TIMES = 20;

/**
 * When the figures below were measured, and a button that measures them now: the server queues the
 * measurement, the service is re-read until its measured time changes.
 */
export function UsageMeasured({ service }: { service: ServiceView }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const measure = useFormMutation({
    send: async () => {
      const before = service.usageMeasuredTS;
      await refreshUsage(service.id);
      for (let i = 0; i < POLL_TIMES; i++) {
        await new Promise((resolve) => setTimeout(resolve, POLL_MS));
        const fresh = await client.fetchQuery({ ...serviceQuery(service.id), staleTime: 0 });
        if (fresh.usageMeasuredTS !== before) return;
      }
    },
  });
  return (
    <Group justify="space-between" gap="xs" wrap="wrap">
      <Text size="xs" c="dimmed" data-testid="usage-measured">
        {service.usageMeasuredTS === null
          ? t('hosting.usage_not_measured')
          : t('hosting.usage_measured', { date: formatDateTime(service.usageMeasuredTS, i18n.language) })}
      </Text>
      <Button size="compact-xs" variant="subtle" onClick={() => measure.mutate()} loading={measure.isPending}>
        {t('hosting.usage_refresh')}
      </Button>
    </Group>
  );
}
