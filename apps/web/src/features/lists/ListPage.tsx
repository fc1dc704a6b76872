import { Box, Button, Stack, Table, Title } from '@mantine/core';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DataList } from '../../components/ui/DataList.tsx';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { type PermissionListItem, usePermissionList } from '../../lib/permissions.ts';

type Kind = 'domain' | 'service' | 'mail';

const KEEP: Record<Kind, (item: PermissionListItem) => boolean> = {
  domain: (item) => item.hasDomain,
  service: (item) => item.hasService,
  mail: (item) => item.hasMail,
};
const TITLE: Record<Kind, string> = { domain: 'shell.domains', service: 'shell.services', mail: 'shell.mails' };

/** Domain, service or mail list (docs/behaviour/shell-session-domains.md#lists): the items of that kind, filterable, each with a manage button. */
export function ListPage({ kind }: { kind: Kind }) {
  const { t } = useTranslation();
  const list = usePermissionList();
  const title = t(TITLE[kind]);
  usePageTitle(title);
  const rows = list.data?.filter(KEEP[kind]);
  const reference = useCallback((item: PermissionListItem) => item.reference, []);
  return (
    <Stack>
      <Title order={1} size="h3">
        {title}
      </Title>
      <DataList
        label={title}
        rows={list.isError ? [] : rows}
        rowKey={(item) => item.id}
        filterText={reference}
        // The header sits over the right-aligned manage buttons, not at the column's left edge.
        columns={[
          t('shell.reference'),
          <Box key="actions" ta="right">
            {t('shell.actions')}
          </Box>,
        ]}
        renderRow={(item) => (
          <Table.Tr>
            <Table.Td className="break-anywhere">{item.reference}</Table.Td>
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
