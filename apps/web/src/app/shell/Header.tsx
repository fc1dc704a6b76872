import { AppShell, Burger, Button, Group, Image, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from '../../lib/i18n.ts';
import { Link, NavLink } from '../../lib/router/links.tsx';
import { useUser } from '../../lib/session.ts';
import { logoOf, useSiteConfig } from '../../lib/siteConfig.ts';
import { UserButton } from './UserButton.tsx';

interface Props {
  menuOpen: boolean;
  onToggleMenu: () => void;
}

/** Logo and company, the top menu (Dashboard, Domains) and the user menu (docs/behaviour/shell-session-domains.md#page-frame). */
export function Header({ menuOpen, onToggleMenu }: Props) {
  const { t } = useTranslation();
  const config = useSiteConfig();
  const user = useUser();
  return (
    <AppShell.Header px="md">
      <Group h="100%" justify="space-between" wrap="nowrap" gap="xs">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <Burger opened={menuOpen} onClick={onToggleMenu} hiddenFrom="sm" size="sm" aria-label={t('shell.toggle_menu')} />
          {/* Named for screen readers also on a phone, where the company's name is hidden. */}
          <UnstyledButton
            component={Link}
            to="/admin/"
            aria-label={config?.company || t('shell.dashboard')}
            style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}
          >
            <Image src={config?.themeConfig.logo_mini || logoOf(config)} alt="" w={32} h={32} fit="contain" />
            <Text fw={700} truncate visibleFrom="xs">
              {config?.company}
            </Text>
          </UnstyledButton>
        </Group>
        <Group gap={4} wrap="nowrap">
          <Group gap={4} visibleFrom="sm" component="nav" aria-label={t('shell.top_menu')}>
            <Button component={NavLink} to="/admin/" end variant="subtle">
              {t('shell.dashboard')}
            </Button>
            <Button component={NavLink} to="/admin/domain/" variant="subtle">
              {t('shell.domains')}
            </Button>
          </Group>
          <UserButton label={`${user?.user ?? ''} · ${t('shell.user_menu')}`} name={user?.user ?? ''} />
        </Group>
      </Group>
    </AppShell.Header>
  );
}
