import type { Redirection } from '@atalaya/contract';
import { ActionIcon, Menu, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';

interface Props {
  label: string;
  rows: Redirection[];
  /** Without redirection write permission there is no row menu (spec §6). */
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
                <Table.Td>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" aria-label={t('sites.redirection_menu', { origin: row.origin })}>
                        ⋮
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => onEdit(row)}>{t('sites.redirection_edit')}</Menu.Item>
                      {row.eliminable && (
                        <Menu.Item color="red" onClick={() => onDelete(row)}>
                          {t('sites.redirection_delete')}
                        </Menu.Item>
                      )}
                    </Menu.Dropdown>
                  </Menu>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
