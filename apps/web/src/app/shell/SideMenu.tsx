import { Divider, NavLink as MantineNavLink, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n.ts';
import { useListKinds, usePermissions } from '../../lib/permissions.ts';
import { useMatch } from '../../lib/router/hooks.ts';
import { NavLink } from '../../lib/router/links.tsx';
import { GENERIC_MENU, itemMenu, listMenu, type MenuEntry } from './menus.ts';

function Entries({ entries }: { entries: MenuEntry[] }) {
  const { t } = useTranslation();
  return entries.map((entry) => <MantineNavLink key={entry.to} component={NavLink} to={entry.to} end label={t(entry.label)} />);
}

function ItemEntries({ itemId }: { itemId: string }) {
  const item = usePermissions(itemId).data;
  if (!item) return null;
  return (
    <>
      <Divider my="xs" />
      <Text size="xs" fw={700} c="dimmed" px="sm" className="break-anywhere">
        {item.reference}
      </Text>
      <Entries entries={itemMenu(item)} />
    </>
  );
}

/** Generic menu, list menu and, inside an item, that item's menu (docs/behaviour/shell-session-domains.md#menus). */
export function SideMenu() {
  const lists = listMenu(useListKinds().data);
  const item = useMatch('/admin/:id/*');
  const itemId = item && /^\d+$/.test(item.params.id ?? '') ? item.params.id : undefined;
  return (
    <Stack gap={0}>
      <Entries entries={GENERIC_MENU} />
      {lists.length > 0 && <Divider my="xs" />}
      <Entries entries={lists} />
      {itemId && <ItemEntries itemId={itemId} />}
    </Stack>
  );
}
