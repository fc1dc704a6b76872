import { Anchor, Container, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from '../../lib/router/links.tsx';
import { useUser } from '../../lib/session.ts';
import { logoOf, useSiteConfig } from '../../lib/siteConfig.ts';
import { NotFoundView } from './NotFoundView.tsx';

/**
 * Any unknown path (docs/behaviour/shell-session-domains.md#not-found-page): logo, links to the dashboard and the domain list, the message and a
 * footer. Signed in it sits on a card in the panel's colours; signed out it stays plain.
 */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const config = useSiteConfig();
  const signedIn = useUser() !== null;
  return (
    <Stack
      mih="100dvh"
      justify="space-between"
      data-state={signedIn ? 'signed-in' : 'signed-out'}
      bg={signedIn ? 'var(--mantine-primary-color-light)' : undefined}
    >
      <Group component="header" justify="space-between" p="md" wrap="wrap">
        <Image src={logoOf(config)} alt={config?.company ?? ''} h={40} w="auto" fit="contain" />
        <Group component="nav" gap="md" aria-label={t('shell.top_menu')}>
          <Anchor component={Link} to="/admin/">
            {t('shell.dashboard')}
          </Anchor>
          <Anchor component={Link} to="/admin/domain/">
            {t('shell.domains')}
          </Anchor>
        </Group>
      </Group>
      <Container component="main" size="sm" w="100%">
        {signedIn ? (
          <Paper withBorder shadow="sm" p="lg">
            <NotFoundView />
          </Paper>
        ) : (
          <NotFoundView />
        )}
      </Container>
      <Text component="footer" size="sm" c="dimmed" ta="center" p="md">
        © {new Date().getFullYear()} {config?.company}
      </Text>
    </Stack>
  );
}
