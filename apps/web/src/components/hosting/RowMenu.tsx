import { ActionIcon, Group, Menu, Table } from '@mantine/core';
import { useTranslation } from '../../lib/i18n.ts';

export interface RowAction {
  label: string;
  onClick: () => void;
  danger?: boolean;
  /** Not offered (no permission, not eliminable). */
  hidden?: boolean;
}

/**
 * A row's last cell, with the row's menu at its end; an empty cell when no action is offered. The
 * menu button is named after the row ("Actions for …"), or by `label` when the list says more.
 */
export function RowMenu({ name, actions, label }: { name: string; actions: RowAction[]; label?: string }) {
  const { t } = useTranslation();
  const shown = actions.filter((a) => !a.hidden);
  return (
    <Table.Td>
      {shown.length > 0 && (
        <Group justify="flex-end">
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={label ?? t('hosting.row_menu', { name })}>
                ⋮
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {shown.map((a) => (
                <Menu.Item key={a.label} color={a.danger ? 'red' : undefined} onClick={a.onClick}>
                  {a.label}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        </Group>
      )}
    </Table.Td>
  );
}
