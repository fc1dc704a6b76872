import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { formatDateTime } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useUser } from '../../lib/session.ts';
import { useSiteConfig } from '../../lib/siteConfig.ts';
import { ExpiringSoon } from './ExpiringSoon.tsx';

/** Company, total domains, username, IP and last login (docs/behaviour/shell-session-domains.md#dashboard), then what expires soon. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const company = useSiteConfig()?.company ?? '';
  usePageTitle(t('shell.dashboard'));
  const facts: [string, string | number | undefined][] = [
    ['shell.business', user?.business || company],
    ['shell.total_domain', user?.total_domain],
    ['shell.username', user?.user],
    ['shell.ip', user?.ip || '—'],
    ['shell.last_login', user?.tsLastLogin ? formatDateTime(user.tsLastLogin, i18n.language) : '—'],
  ];
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('shell.dashboard')}
      </Title>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} component="dl" m={0}>
        {facts.map(([label, value]) => (
          <Paper key={label} withBorder p="md">
            <Text component="dt" size="sm" c="dimmed">
              {t(label)}
            </Text>
            <Text component="dd" m={0} fw={600} size="lg" className="break-anywhere" data-testid={label}>
              {value ?? '…'}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <ExpiringSoon />
    </Stack>
  );
}
