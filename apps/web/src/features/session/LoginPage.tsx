import { Anchor, Center, Group, Image, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { LanguageSelect } from '../../components/ui/LanguageSelect.tsx';
import { ThemeSelect } from '../../components/ui/ThemeSelect.tsx';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { logoOf, siteConfigQuery } from '../../lib/siteConfig.ts';
import { enterPanel } from './api/afterLogin.ts';
import { LoginForm } from './components/LoginForm.tsx';

// The forgot-password dialog loads on first use: most visitors never open it.
const ForgotDialog = lazy(() => import('./components/ForgotDialog.tsx'));

/**
 * The sign-in page (docs/behaviour/shell-session-domains.md#sign-in-page): needs no session. It works without the router (main.tsx shows it
 * alone); the router's /login/ route sends a signed-in visitor to the dashboard.
 */
export default function LoginPage() {
  const { t } = useTranslation();
  // Until the branding arrives there is only a placeholder; a failed load is retried.
  const config = useQuery({ ...siteConfigQuery, refetchInterval: (query) => (query.state.data ? false : 5000) }).data;
  const [forgot, setForgot] = useState(false);
  usePageTitle(t('shell.login_title'), true);

  if (!config) {
    return (
      <Center h="100dvh">
        <Loader aria-label={t('main.loading')} />
      </Center>
    );
  }
  return (
    <Stack mih="100dvh" justify="space-between" p="md">
      <Center component="main" style={{ flex: 1 }}>
        <Stack w="100%" maw={400} gap="lg">
          <Stack align="center" gap="xs">
            <Image src={logoOf(config)} alt="" w={72} h={72} fit="contain" />
            <Title order={1} size="h2" ta="center">
              {config.company}
            </Title>
          </Stack>
          <Paper withBorder shadow="sm" p="lg" radius="md">
            <Title order={2} size="h4" mb="md">
              {t('shell.login_heading')}
            </Title>
            <LoginForm onSignedIn={(answer) => void enterPanel(answer.domainID, answer.mustEnrol)} />
            <Anchor component="button" type="button" size="sm" mt="md" onClick={() => setForgot(true)}>
              {t('shell.forgot_link')}
            </Anchor>
          </Paper>
        </Stack>
      </Center>
      <Group component="footer" justify="center" gap="md" wrap="wrap">
        <Text size="sm" c="dimmed">
          © {new Date().getFullYear()} {config.company}
        </Text>
        <ThemeSelect signedIn={false} />
        <LanguageSelect signedIn={false} />
      </Group>
      {forgot && (
        <Suspense fallback={null}>
          <ForgotDialog opened onClose={() => setForgot(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
