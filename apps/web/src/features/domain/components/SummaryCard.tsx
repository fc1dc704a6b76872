import type { DnssecRecord, DomainAnswer, GlueRecord } from '@atalaya/contract';
import { ActionIcon, Badge, Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { allowsCall } from '../../../lib/permissions.ts';
import { dnssecQuery, glueQuery } from '../api/domain.ts';
import { DnssecDeleteDialog, DnssecDialog } from './DnssecDialog.tsx';
import { GlueDeleteDialog, GlueDialog } from './GlueDialog.tsx';
import { NameServersDialog } from './NameServersDialog.tsx';
import { ShowMore } from './ShowMore.tsx';

type Open =
  | { kind: 'nameServers' }
  | { kind: 'glue'; record: GlueRecord | null }
  | { kind: 'glue-delete'; record: GlueRecord }
  | { kind: 'dnssec' }
  | { kind: 'dnssec-delete'; record: DnssecRecord }
  | null;

/** DNS servers, glue records and DNSSEC items, two of each before "show more"; edits open dialogs. */
export function SummaryCard({ data }: { data: DomainAnswer }) {
  const { t } = useTranslation();
  const { id, name, permissions, dns } = data.domain;
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const glue = useQuery({ ...glueQuery(id), enabled: allowsCall(permissions, endpoints.domain.glueList) });
  const dnssec = useQuery({ ...dnssecQuery(id), enabled: allowsCall(permissions, endpoints.domain.dnssecList) });
  const section = (title: string, action: React.ReactNode) => (
    <Group justify="space-between" mb={4}>
      <Text fw={600}>{title}</Text>
      {action}
    </Group>
  );
  const add = (label: string, onClick: () => void) => (
    <Button size="compact-sm" variant="light" onClick={onClick}>
      {label}
    </Button>
  );

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('domain.summary')}
      </Title>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        {allowsCall(permissions, endpoints.domain.nameServers) && (
          <div data-testid="summary-dns">
            {section(
              t('domain.dns_servers'),
              allowsCall(permissions, endpoints.domain.saveNameServers) && add(t('domain.edit'), () => setOpen({ kind: 'nameServers' })),
            )}
            <Text size="xs" c="dimmed">
              {t(`domain.mode_${dns.mode}`)}
            </Text>
            <ShowMore
              items={dns.servers}
              label={t('domain.dns_servers')}
              render={(host) => (
                <Text key={host} role="listitem">
                  {host}
                </Text>
              )}
            />
          </div>
        )}
        {allowsCall(permissions, endpoints.domain.glueList) && (
          <div data-testid="summary-glue">
            {section(
              t('domain.glue_records'),
              allowsCall(permissions, endpoints.domain.glueCreate) && add(t('domain.add'), () => setOpen({ kind: 'glue', record: null })),
            )}
            {glue.data?.length === 0 && <Text c="dimmed">{t('domain.none')}</Text>}
            <ShowMore
              items={glue.data ?? []}
              label={t('domain.glue_records')}
              render={(record) => (
                <Group key={record.id} gap={4} role="listitem" wrap="nowrap">
                  <Text className="break-anywhere" size="sm">
                    {record.name} · {record.ip}
                    {record.ipv6 && ` · ${record.ipv6}`}
                  </Text>
                  {allowsCall(permissions, endpoints.domain.glueCreate) && (
                    <>
                      <ActionIcon
                        variant="subtle"
                        aria-label={t('domain.edit_item', { name: record.name })}
                        onClick={() => setOpen({ kind: 'glue', record })}
                      >
                        ✎
                      </ActionIcon>
                      <ActionIcon
                        variant="subtle"
                        color="red"
                        aria-label={t('domain.delete_item', { name: record.name })}
                        onClick={() => setOpen({ kind: 'glue-delete', record })}
                      >
                        ×
                      </ActionIcon>
                    </>
                  )}
                </Group>
              )}
            />
          </div>
        )}
        {allowsCall(permissions, endpoints.domain.dnssecList) && (
          <div data-testid="summary-dnssec">
            {section(
              t('domain.dnssec'),
              allowsCall(permissions, endpoints.domain.dnssecCreate) && add(t('domain.add'), () => setOpen({ kind: 'dnssec' })),
            )}
            {dnssec.data?.length === 0 && <Text c="dimmed">{t('domain.none')}</Text>}
            <ShowMore
              items={dnssec.data ?? []}
              label={t('domain.dnssec')}
              render={(record) => (
                <Group key={record.id} gap={4} role="listitem" wrap="nowrap">
                  <Text size="sm" className="break-anywhere">
                    {t('domain.keytag')} {record.keytag} · {t('domain.algorithm')} {record.algorithm}
                    {record.digesttype !== null && ` · ${t('domain.digesttype')} ${record.digesttype}`}
                  </Text>
                  {record.managed && (
                    <Badge size="sm" variant="light" title={t('domain.dnssec_managed_hint')} data-testid="dnssec-managed">
                      {t('domain.dnssec_managed')}
                    </Badge>
                  )}
                  {allowsCall(permissions, endpoints.domain.dnssecCreate) && !record.managed && (
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      aria-label={t('domain.delete_item', { name: record.keytag })}
                      onClick={() => setOpen({ kind: 'dnssec-delete', record })}
                    >
                      ×
                    </ActionIcon>
                  )}
                </Group>
              )}
            />
          </div>
        )}
      </SimpleGrid>
      <Stack gap={0}>
        <NameServersDialog id={id} opened={open?.kind === 'nameServers'} onClose={close} />
        <GlueDialog
          id={id}
          domain={name}
          record={open?.kind === 'glue' ? open.record : null}
          opened={open?.kind === 'glue'}
          onClose={close}
        />
        <GlueDeleteDialog id={id} record={open?.kind === 'glue-delete' ? open.record : null} onClose={close} />
        <DnssecDialog id={id} opened={open?.kind === 'dnssec'} onClose={close} />
        <DnssecDeleteDialog id={id} record={open?.kind === 'dnssec-delete' ? open.record : null} onClose={close} />
      </Stack>
    </Card>
  );
}
