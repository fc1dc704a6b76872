import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { formatDate } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { expiringQuery } from './expiringQuery.ts';

const DAY = 86_400;

/** The dashboard's "expiring soon": certificates, domains and services the user sees that expire within the warning window. */
export function ExpiringSoon() {
  const { t, i18n } = useTranslation();
  const { data } = useQuery(expiringQuery);
  if (!data) return null;
  const nowSeconds = Date.now() / 1000;
  return (
    <Paper withBorder p="md" data-testid="expiring-soon">
      <Title order={2} size="h5" mb="xs">
        {t('shell.expiring_title')}
      </Title>
      {data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('shell.expiring_none')}
        </Text>
      ) : (
        <Table>
          <Table.Tbody>
            {data.map((e) => {
              const days = Math.ceil((e.expiresAt - nowSeconds) / DAY);
              return (
                <Table.Tr key={`${e.kind}-${e.name}`}>
                  <Table.Td>
                    <Badge variant="light" color={e.kind === 'certificate' ? 'teal' : 'blue'}>
                      {t(`shell.expiring_${e.kind}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td className="break-anywhere">{e.name}</Table.Td>
                  <Table.Td>{formatDate(e.expiresAt, i18n.language)}</Table.Td>
                  <Table.Td>
                    {e.expiry && e.expiry.state !== 'active' ? (
                      // An expired domain says where it is at its registry, and until when.
                      <Text size="sm" c="red" data-state={e.expiry.state}>
                        {t(`shell.domain_expiry_${e.expiry.state}`, { date: formatDate(e.expiry.until, i18n.language) })}
                      </Text>
                    ) : (
                      <Text size="sm" c={days <= 7 ? 'red' : undefined}>
                        {days <= 0 ? t('shell.expiring_expired') : t('shell.expiring_in', { count: days })}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
