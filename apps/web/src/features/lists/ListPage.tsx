import type { ItemRow, ListKind } from '@atalaya/contract';
import { Badge, Box, Button, Checkbox, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { DataList } from '../../components/ui/DataList.tsx';
import { EXPIRED, VALID } from '../../components/ui/expiryColours.ts';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { useServerPage } from '../../components/ui/useServerPage.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { formatDate, isExpired } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from '../../lib/router/links.tsx';
import { BulkDialog } from './bulk/BulkDialog.tsx';
import { BulkProgress } from './bulk/BulkProgress.tsx';

const TITLE: Record<ListKind, string> = { domain: 'shell.domains', service: 'shell.services', mail: 'shell.mails' };
// Header index → the server's sort: the reference column and the expiry column sort.
const SORTABLE = { 0: 'reference', 1: 'expiry' } as const;
// The domain list's first column is the selection box.
const SORTABLE_WITH_SELECTION = { 1: 'reference', 2: 'expiry' } as const;

/**
 * Domain, service or mail list (docs/behaviour/shell-session-domains.md#lists): one page at a time
 * from the server, filtered and sorted there (docs/decisions/025-paged-lists.md), each row with its
 * expiry, the red/green status and a manage button.
 */
export function ListPage({ kind }: { kind: ListKind }) {
  const { t } = useTranslation();
  const title = t(TITLE[kind]);
  usePageTitle(title);
  const { query, data, paged } = useServerPage(endpoints.lists[kind], {}, { sort: 'reference' as 'reference' | 'expiry' });
  // Domains only: a selection kept across pages, for one action over all of them.
  const bulk = kind === 'domain';
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [dialog, setDialog] = useState(false);
  const [batch, setBatch] = useState<number | null>(null);
  const pageIds = (data?.rows ?? []).map((row) => row.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const toggle = (ids: number[], on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) on ? next.add(id) : next.delete(id);
      return next;
    });
  return (
    <Stack>
      <Title order={1} size="h3">
        {title}
      </Title>
      {bulk && (
        <Group gap="sm">
          <Button size="xs" disabled={selected.size === 0} onClick={() => setDialog(true)} data-testid="bulk-open">
            {t('shell.bulk_open', { count: selected.size })}
          </Button>
          {selected.size > 0 && (
            <Button size="xs" variant="subtle" onClick={() => setSelected(new Set())}>
              {t('shell.bulk_clear')}
            </Button>
          )}
        </Group>
      )}
      {bulk && batch !== null && <BulkProgress id={batch} onClose={() => setBatch(null)} />}
      {bulk && (
        <BulkDialog
          ids={[...selected]}
          opened={dialog}
          onClose={() => setDialog(false)}
          onStarted={(answer) => {
            setBatch(answer.id);
            setSelected(new Set());
          }}
        />
      )}
      <DataList
        label={title}
        rows={query.isError && !data ? [] : data?.rows}
        rowKey={(item) => item.id}
        filterText={reference}
        server={paged}
        sortable={bulk ? SORTABLE_WITH_SELECTION : SORTABLE}
        // The header sits over the right-aligned manage buttons, not at the column's left edge.
        columns={[
          ...(bulk
            ? [
                <Checkbox
                  key="select"
                  aria-label={t('shell.bulk_select_page')}
                  checked={allOnPage}
                  onChange={(e) => toggle(pageIds, e.currentTarget.checked)}
                />,
              ]
            : []),
          t('shell.reference'),
          t('shell.expiry'),
          <Box key="actions" ta="right">
            {t('shell.actions')}
          </Box>,
        ]}
        renderRow={(item) => (
          <Table.Tr>
            {bulk && (
              <Table.Td>
                <Checkbox
                  aria-label={t('shell.bulk_select', { name: item.reference })}
                  checked={selected.has(item.id)}
                  onChange={(e) => toggle([item.id], e.currentTarget.checked)}
                />
              </Table.Td>
            )}
            <Table.Td className="break-anywhere">{item.reference}</Table.Td>
            <Table.Td>
              <Expiry item={item} />
            </Table.Td>
            <Table.Td ta="right">
              <Button
                component={Link}
                to={`/admin/${item.id}/${kind}/`}
                size="xs"
                variant="light"
                aria-label={`${t('shell.manage')} ${item.reference}`}
              >
                {t('shell.manage')}
              </Button>
            </Table.Td>
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

const reference = (item: ItemRow) => item.reference;

/** The expiry date and the status light: green while in force, red once expired. */
function Expiry({ item }: { item: ItemRow }) {
  const { t, i18n } = useTranslation();
  const expired = isExpired(item.expireTS);
  const date = formatDate(item.expireTS, i18n.language);
  // A domain past its expiry says where it is at its registry: in grace, redemption or pending delete, and until when.
  const life = item.expiry && item.expiry.state !== 'active' ? item.expiry : null;
  if (life) {
    const until = formatDate(life.until, i18n.language);
    return (
      <Group gap="xs" wrap="nowrap">
        <Badge
          color={EXPIRED}
          variant="filled"
          size="sm"
          data-expired
          data-state={life.state}
          aria-label={t(`shell.domain_expiry_${life.state}`, { date: until })}
        >
          {t(`shell.domain_state_${life.state}`)}
        </Badge>
        <Text size="sm" aria-hidden="true">
          {until}
        </Text>
      </Group>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Badge
        color={expired ? EXPIRED : VALID}
        variant="filled"
        size="sm"
        data-expired={expired}
        aria-label={t(expired ? 'shell.expired_on' : 'shell.expires_on', { date })}
      >
        {t(expired ? 'shell.expiring_expired' : 'shell.in_force')}
      </Badge>
      <Text size="sm" aria-hidden="true">
        {date}
      </Text>
    </Group>
  );
}
