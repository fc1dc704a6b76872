import { Button, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from '../../lib/router/links.tsx';

/** 'Error 404: Page not found!' with the way back (docs/behaviour/shell-session-domains.md#errors); also for pages without visibility. */
export function NotFoundView() {
  const { t } = useTranslation();
  usePageTitle(t('shell.not_found_title'));
  return (
    <Stack align="center" gap="md" py="xl" data-testid="not-found">
      <Title order={1} size="h2" ta="center">
        {t('shell.not_found')}
      </Title>
      <Text c="dimmed" ta="center">
        {t('shell.not_found_hint')}
      </Text>
      <Button component={Link} to="/admin/">
        {t('shell.back_to_dashboard')}
      </Button>
    </Stack>
  );
}
