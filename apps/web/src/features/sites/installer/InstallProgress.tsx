import { SITES_LIMITS } from '@atalaya/contract';
import { Anchor, Progress, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { installationQuery } from '../api/installer.ts';

interface Props {
  serviceId: string;
  installationId: number;
  name: string;
  onFailed: (message: string) => void;
}

/** Follows the install job until it is done or failed, polling once a second. */
export function InstallProgress({ serviceId, installationId, name, onFailed }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { data, error } = useQuery({
    ...installationQuery(serviceId, installationId),
    refetchInterval: (query) => {
      const status = query.state.data?.status;
      return status === 'done' || status === 'failed' ? false : SITES_LIMITS.installPollMs;
    },
  });
  const status = data?.status;
  useEffect(() => {
    if (status === 'failed') onFailed(data?.error ?? t('shell.error'));
    if (status === 'done') client.invalidateQueries({ queryKey: ['sites', serviceId] });
  }, [status, data?.error, onFailed, client, serviceId, t]);
  useEffect(() => {
    if (error) onFailed(error.message);
  }, [error, onFailed]);
  if (status === 'done' && data) {
    return (
      <Text role="status" data-testid="install-done">
        {t('sites.installed', { name, url: '' })}
        <Anchor href={data.url} target="_blank" rel="noopener noreferrer">
          {data.url}
        </Anchor>
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <Text>{t('sites.installing', { name })}</Text>
      <Progress value={data?.progress ?? 0} aria-label={t('sites.install_progress')} animated striped />
    </Stack>
  );
}
