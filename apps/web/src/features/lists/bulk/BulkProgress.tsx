import type { BulkItemState } from '@atalaya/contract';
import { Badge, Button, Card, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { bulkKey, bulkQuery, retryBulk } from './api.ts';

const COLOR: Record<BulkItemState, string> = { queued: 'blue', done: 'green', failed: 'red', skipped: 'gray' };

/**
 * A batch's progress on the domain list: the bar moves as the registry applies each domain, then
 * each domain's result (done, refused with the registry's reason, skipped), and a retry of the
 * refused ones from here.
 */
export function BulkProgress({ id, onClose }: { id: number; onClose: () => void }) {
  const { t } = useTranslation();
  const { data } = useQuery(bulkQuery(id));
  const retry = useFormMutation({ send: () => retryBulk(id), reload: [bulkKey(id)] });
  if (!data) return null;
  const { counts, total } = data;
  const settled = total - counts.queued;
  const percent = total ? Math.round((settled / total) * 100) : 100;
  return (
    <Card withBorder data-testid="bulk-progress">
      <Stack gap="sm">
        <Group justify="space-between">
          <Text fw={600}>{t(`shell.bulk_action_${data.action}`)}</Text>
          <Button size="xs" variant="subtle" onClick={onClose}>
            {t('shell.bulk_hide')}
          </Button>
        </Group>
        <Progress
          value={percent}
          animated={counts.queued > 0}
          aria-label={t('shell.bulk_progress', { settled, total })}
          data-testid="bulk-bar"
          data-value={percent}
        />
        <Text size="sm" data-testid="bulk-counts">
          {t('shell.bulk_counts', counts)}
        </Text>
        {counts.failed > 0 && counts.queued === 0 && (
          <Group>
            <Button size="xs" color="red" variant="light" loading={retry.isPending} onClick={() => retry.mutate()}>
              {t('shell.bulk_retry', { count: counts.failed })}
            </Button>
          </Group>
        )}
        <Table data-testid="bulk-results">
          <Table.Tbody>
            {data.items
              .filter((item) => item.state !== 'done')
              .map((item) => (
                <Table.Tr key={item.id} data-state={item.state}>
                  <Table.Td className="break-anywhere">{item.name || `#${item.id}`}</Table.Td>
                  <Table.Td>
                    <Badge color={COLOR[item.state]} size="sm">
                      {t(`shell.bulk_state_${item.state}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{item.message}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Card>
  );
}
