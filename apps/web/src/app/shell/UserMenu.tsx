import { Button, Menu, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { logout } from '../../features/session/api/logout.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from '../../lib/router/links.tsx';
import type { UserButtonProps } from './UserButton.tsx';

interface Props {
  /** Open at once: the user clicked the stand-in button before this chunk had arrived. */
  opened: boolean;
  /** Whether the stand-in button has the focus: if so, this one takes it over. */
  focused: RefObject<boolean>;
  button: UserButtonProps;
}

/**
 * The user menu (docs/behaviour/shell-session-domains.md#page-frame), a chunk of its own: Menu, Popover and floating-ui are a large share of
 * the panel's chunk, and the menu is not needed to show a page (docs/design.md#budgets). UserButton.tsx stands in
 * until it arrives.
 */
export default function UserMenu({ opened, focused, button }: Props) {
  const { t } = useTranslation();
  const target = useRef<HTMLButtonElement>(null);
  const [open, setOpen] = useState(opened);
  // Mantine closes on Escape only from inside the dropdown; when the menu opened while replacing
  // the stand-in, the focus may not be there yet, and Escape must close it all the same.
  useWindowEvent('keydown', (event) => {
    if (open && event.key === 'Escape') setOpen(false);
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when this replaces the stand-in
  useLayoutEffect(() => {
    if (focused.current) target.current?.focus();
  }, []);
  return (
    <Menu position="bottom-end" withinPortal opened={open} onChange={setOpen}>
      <Menu.Target>
        <Button ref={target} variant="light" aria-label={button.label} maw={160}>
          <Text truncate size="sm">
            {button.name}
          </Text>
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to="/admin/">
          {t('shell.dashboard')}
        </Menu.Item>
        <Menu.Item component={Link} to="/admin/preferences/">
          {t('shell.preferences')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" onClick={() => void logout()}>
          {t('shell.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
