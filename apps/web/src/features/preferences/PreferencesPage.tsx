import { Button, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { LanguageSelect } from '../../components/ui/LanguageSelect.tsx';
import { ThemeSelect } from '../../components/ui/ThemeSelect.tsx';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useUser } from '../../lib/session.ts';
import { useSiteConfig } from '../../lib/siteConfig.ts';
import { ChangePasswordDialog } from './components/ChangePasswordDialog.tsx';
import { ColorPalette } from './components/ColorPalette.tsx';
import { SecondFactors } from './components/SecondFactors.tsx';
import { TokensSection } from './components/TokensSection.tsx';

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Stack gap={6}>
      <Text fw={600} size="sm">
        {label}
      </Text>
      {children}
    </Stack>
  );
}

/** Theme, colour (only when the provider allows it), language, password, second factors and API tokens (docs/behaviour/shell-session-domains.md#preferences). */
export default function PreferencesPage() {
  const { t } = useTranslation();
  const user = useUser();
  const config = useSiteConfig();
  const [password, setPassword] = useState(false);
  usePageTitle(t('shell.preferences'));
  const colourAllowed = user?.canSetColor ?? config?.allowCustomerColor ?? false;
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('shell.preferences')}
      </Title>
      <Paper withBorder p="md">
        <Stack gap="md">
          <Row label={t('shell.theme')}>
            <ThemeSelect signedIn />
          </Row>
          {colourAllowed && (
            <Row label={t('shell.color')}>
              <ColorPalette />
            </Row>
          )}
          <Row label={t('shell.language')}>
            <div style={{ maxWidth: 200 }}>
              <LanguageSelect signedIn />
            </div>
          </Row>
          <Divider />
          <Row label={t('shell.password')}>
            <div>
              <Button variant="light" onClick={() => setPassword(true)}>
                {t('shell.change_password')}
              </Button>
            </div>
          </Row>
          <Divider />
          <Row label={t('factors.title')}>
            <SecondFactors />
          </Row>
        </Stack>
      </Paper>
      {/* While a required second factor is missing the token calls are refused (decision 021): the section waits. */}
      {!user?.mustEnrol && (
        <>
          <Title order={2} size="h4">
            {t('tokens.title')}
          </Title>
          <Paper withBorder p="md">
            <TokensSection />
          </Paper>
        </>
      )}
      <ChangePasswordDialog opened={password} onClose={() => setPassword(false)} />
    </Stack>
  );
}
