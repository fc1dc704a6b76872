import { Badge, Button, Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { currentLanguage, useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { historyKey, historyQuery, revertChange } from '../api/zoneTools.ts';

interface Props {
  serviceId: string;
  canWrite: boolean;
  /** Reloads the records after a revert. */
  onReverted: () => unknown;
}

/** The zone's latest changes, newest first: what each changed, who and when, and a revert. */
export function HistoryCard({ serviceId, canWrite, onReverted }: Props) {
  const { t } = useTranslation();
  const { check } = usePermissions(serviceId);
  const history = useQuery(historyQuery(serviceId));
  const revert = useFormMutation({
    permission: { check, call: endpoints.dns.revert },
    send: (changeId: number) => revertChange(serviceId, changeId),
    reload: [historyKey(serviceId)],
    onDone: onReverted,
  });
  const changes = history.data ?? [];
  const when = (at: number) => new Date(at * 1000).toLocaleString(currentLanguage());
  const names = (sets: { name: string; type: string }[]) => [...new Set(sets.map((s) => `${s.name} ${s.type}`))];
  return (
    <Card withBorder data-testid="dns-history">
      <Stack gap="sm">
        <Title order={4}>{t('dns.history_title')}</Title>
        {changes.length === 0 ? (
          <Text c="dimmed">{t('dns.history_empty')}</Text>
        ) : (
          <Table>
            <Table.Tbody>
              {changes.map((c) => {
                const sets = names([...c.before, ...c.after]);
                return (
                  <Table.Tr key={c.id}>
                    <Table.Td>{when(c.at)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">{t(`dns.history_kind_${c.kind.replace('-', '_')}`)}</Badge>
                    </Table.Td>
                    <Table.Td>{c.by}</Table.Td>
                    <Table.Td style={{ wordBreak: 'break-all' }}>
                      {sets.slice(0, 3).join(', ')}
                      {sets.length > 3 && ` ${t('dns.history_more', { count: sets.length - 3 })}`}
                    </Table.Td>
                    <Table.Td>
                      {c.reverted ? (
                        <Text size="sm" c="dimmed">
                          {t('dns.history_reverted')}
                        </Text>
                      ) : (
                        canWrite && (
                          <Group justify="flex-end">
                            <Button
                              size="xs"
                              variant="light"
                              loading={revert.isPending && revert.variables === c.id}
                              onClick={() => revert.mutate(c.id)}
                            >
                              {t('dns.history_revert')}
                            </Button>
                          </Group>
                        )
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}
