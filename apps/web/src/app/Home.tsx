import { Center, Image, Loader, Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { get } from '../lib/api.ts';

interface SiteConfig {
  company: string;
  themeConfig: { logo: string; logo_mini: string; color: string };
}

/** Placeholder landing until the shell arrives: proves the SPA talks to its API. */
export function Home() {
  const { t } = useTranslation();
  const config = useQuery({ queryKey: ['config'], queryFn: () => get<SiteConfig>('config/get/') });
  if (!config.data) return <Center h="100vh"><Loader aria-label={t('main.loading')} /></Center>;
  return (
    <Center h="100vh">
      <Stack align="center">
        <Image src={config.data.themeConfig.logo} w={80} alt="" />
        <Title order={1}>{config.data.company}</Title>
        <p>{t('main.app_name')}</p>
      </Stack>
    </Center>
  );
}
