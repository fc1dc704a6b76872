import { Anchor, Group, Text } from '@mantine/core';
import { useTranslation } from '../../lib/i18n.ts';
import { Link } from '../../lib/router/links.tsx';
import { useSiteConfig } from '../../lib/siteConfig.ts';

/** The year and the company (docs/behaviour/shell-session-domains.md#page-frame), with the legal notice one click away. */
export function Footer() {
  const { t } = useTranslation();
  const company = useSiteConfig()?.company ?? '';
  return (
    <Group component="footer" justify="center" gap="md" py="md" mt="xl" wrap="wrap">
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} {company}
      </Text>
      <Anchor component={Link} to="/legal/" size="sm">
        {t('shell.legal')}
      </Anchor>
      <Anchor component={Link} to="/admin/contact/" size="sm">
        {t('shell.contact')}
      </Anchor>
    </Group>
  );
}
