import { type DnsRecord, hasPriority } from '@atalaya/contract';
import { Badge, Group, Table, Text } from '@mantine/core';
import { Fragment } from 'react';
import { RowMenu } from '../../../components/hosting/RowMenu.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { ttlLabel } from '../labels.ts';

interface Props {
  record: DnsRecord;
  canWrite: boolean;
  onEdit: (record: DnsRecord) => void;
  onDelete: (record: DnsRecord) => void;
}

/** A name may wrap after each dot (mail. / example.com), never inside a label. */
const breakAtDots = (name: string) =>
  name.split(/(?<=\.)/).map((part, i, parts) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one name, in order
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 && <wbr />}
    </Fragment>
  ));

/** One list row (docs/behaviour/service-area-dns.md#dns-zone): name with type, priority for MX/SRV only, TTL label, value and dynamic value. */
export function RecordRow({ record, canWrite, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  return (
    <Table.Tr data-testid="dns-row" data-type={record.type}>
      <Table.Td>
        {/* The badge never shrinks (CNAME and ANAME were cut to "CNA…", every type at 360 px), and the
            name keeps a readable width: on a phone the table scrolls sideways instead of breaking
            example.com into "exam ple.c om". */}
        <Group gap="xs" wrap="nowrap" miw="11rem">
          <Badge variant="light" w={76} style={{ flexShrink: 0 }}>
            {record.type}
          </Badge>
          <Text size="sm" data-testid="dns-name">
            {breakAtDots(record.reference)}
          </Text>
        </Group>
      </Table.Td>
      <Table.Td>{hasPriority(record.type) ? record.priority : ''}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{ttlLabel(t, record.ttl)}</Table.Td>
      <Table.Td style={{ maxWidth: '28rem' }}>
        <Text size="sm" lineClamp={3} miw="9rem" style={{ overflowWrap: 'anywhere' }} data-testid="dns-value">
          {record.value}
        </Text>
        {record.dynamicValue && (
          <Text size="xs" c="dimmed" title={t('dns.dynamic_value')}>
            {record.dynamicValue}
          </Text>
        )}
      </Table.Td>
      <RowMenu
        name={`${record.reference} ${record.type}`}
        actions={[
          { label: t('dns.edit_action'), onClick: () => onEdit(record), hidden: !canWrite },
          { label: t('dns.delete_action'), onClick: () => onDelete(record), danger: true, hidden: !canWrite || !record.eliminable },
        ]}
      />
    </Table.Tr>
  );
}
