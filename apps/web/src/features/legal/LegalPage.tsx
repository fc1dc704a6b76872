import { toLanguage } from '@atalaya/contract';
import { Paper, Stack, Text, Title } from '@mantine/core';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useSiteConfig } from '../../lib/siteConfig.ts';
import { fillLegal, LEGAL } from './texts.ts';

/** Default jurisdiction when the server does not name one (README: Palma). */
const DEFAULT_JURISDICTION = 'Palma';

/** Terms of use in the user's language, under Spanish law (docs/behaviour/shell-session-domains.md#scope). */
export default function LegalPage() {
  const { t, i18n } = useTranslation();
  const config = useSiteConfig();
  usePageTitle(t('shell.legal'));
  const legal = LEGAL[toLanguage(i18n.language)];
  const fill = (text: string) => fillLegal(text, config?.company ?? '', config?.jurisdiction ?? DEFAULT_JURISDICTION);
  return (
    <Paper withBorder p="lg">
      <Stack gap="md">
        <Title order={1} size="h3">
          {legal.title}
        </Title>
        {legal.sections.map((section) => (
          <Stack key={section.heading} gap={4}>
            <Title order={2} size="h5">
              {section.heading}
            </Title>
            <Text>{fill(section.body)}</Text>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}
