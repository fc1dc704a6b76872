import type { Redirection } from '@atalaya/contract';
import { Table } from '@mantine/core';
import { RowMenu } from '../../../components/hosting/RowMenu.tsx';
import { useTranslation } from '../../../lib/i18n.ts';

interface Props {
  label: string;
  rows: Redirection[];
  /** Without redirection write permission there is no row menu (docs/behaviour/service-area-dns.md#permissions). */
  canWrite: boolean;
  onEdit: (row: Redirection) => void;
  onDelete: (row: Redirection) => void;
}

/** The redirections of one host: type, origin path, target; all as text. */
export function RedirectionsTable({ label, rows, canWrite, onEdit, onDelete }: Props) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={0}>
      <Table aria-label={label} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('sites.redir_type')}</Table.Th>
            <Table.Th>{t('sites.redir_origin')}</Table.Th>
            <Table.Th>{t('sites.redir_target')}</Table.Th>
            {canWrite && <Table.Th aria-label={t('shell.actions')} />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              <Table.Td>{t(`sites.redir_type_${row.redirType}`)}</Table.Td>
              <Table.Td className="break-anywhere">{row.recurso}</Table.Td>
              <Table.Td className="break-anywhere">{row.url}</Table.Td>
              {canWrite && (
                <RowMenu
                  name={row.origin}
                  label={t('sites.redirection_menu', { origin: row.origin })}
                  actions={[
                    { label: t('sites.redirection_edit'), onClick: () => onEdit(row) },
                    { label: t('sites.redirection_delete'), onClick: () => onDelete(row), danger: true, hidden: !row.eliminable },
                  ]}
                />
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
