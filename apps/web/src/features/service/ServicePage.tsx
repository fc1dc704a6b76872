import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { submitAutoForm } from '../../components/hosting/autoSubmit.ts';
import { StateBadge } from '../../components/hosting/StateBadge.tsx';
import { NotPermitted } from '../../components/ui/NotPermitted.tsx';
import { useFormMutation } from '../../components/ui/useFormMutation.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { useNavigate } from '../../lib/router/hooks.ts';
import { constructorFolder, constructorLogin, ftpLogin, ftpQuery, serviceKey } from './api/service.ts';
import { BackupFailedLine } from './components/BackupFailedLine.tsx';
import { ErrorLogDialog } from './components/ErrorLogDialog.tsx';
import { ParkingSwitch } from './components/ParkingSwitch.tsx';
import { PhpDialog, phpLabel } from './components/PhpDialog.tsx';
import { UsageMeasured } from './components/UsageMeasured.tsx';
import { UsageRow } from './components/UsageRow.tsx';
import { useService } from './ServiceWrapper.tsx';

/**
 * The service main view: a hosting service's information and web resources, or a parking card
 * followed by `parkingExtra` (the domain's redirections, which belong to the sites feature and
 * are handed in by the routes so that this feature does not import another).
 */
export default function ServicePage({ parkingExtra }: { parkingExtra?: ReactNode }) {
  const { t } = useTranslation();
  const service = useService();
  const { canCall, check } = usePermissions(service.id);
  const [dialog, setDialog] = useState<'php' | 'log' | null>(null);
  const close = () => setDialog(null);
  // The launcher asks for the selected folder, then signs in for it and opens a new tab.
  const builder = useFormMutation({
    permission: { check, call: endpoints.service.webConstructorLogin },
    send: async () => constructorLogin(service.id, await constructorFolder(service.id)),
    onDone: (url) => window.open(url, '_blank', 'noopener'),
  });
  const client = useQueryClient();
  const navigate = useNavigate();
  // WebFTP opens for the service's first FTP user, in its folder; without one, the FTP list, to create it.
  const webFtp = useFormMutation({
    send: async () => {
      const [first] = await client.fetchQuery(ftpQuery(service.id));
      if (first) submitAutoForm(await ftpLogin(service.id, first.id, first.directorio));
      else navigate('ftp/');
    },
  });

  // The service's own change (PHP version, parking) may be retried by whoever may make it.
  const retry = (canCall(endpoints.service.php) || canCall(endpoints.service.parkingOn)) && {
    itemId: service.id,
    job: service.job,
    listKey: serviceKey(service.id),
    name: service.reference,
  };

  if (service.isRedirAndParking) {
    return (
      <Stack>
        <Title order={2} size="h4">
          {t('hosting.parking')}
          <StateBadge state={service.state} waitingFor={service.waitingFor} retry={retry} />
        </Title>
        <BackupFailedLine service={service} />
        <Card withBorder>
          <ParkingSwitch service={service} />
          {parkingExtra}
        </Card>
      </Stack>
    );
  }

  const phpEditable = canCall(endpoints.service.php);
  return (
    <Stack>
      <Title order={2} size="h4">
        {t('hosting.hosting')}
        <StateBadge state={service.state} waitingFor={service.waitingFor} retry={retry} />
      </Title>
      <BackupFailedLine service={service} />
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">
            {t('hosting.information')}
          </Title>
          <Stack gap="sm">
            <Group justify="space-between">
              <Text size="sm">{t('hosting.php_version')}</Text>
              {phpEditable ? (
                <Button size="xs" variant="light" onClick={() => setDialog('php')} data-testid="php-button">
                  {phpLabel(t, service, service.phpversion)}
                </Button>
              ) : (
                <NotPermitted>
                  <Text size="sm" fw={500} data-testid="php-text">
                    {phpLabel(t, service, service.phpversion)}
                  </Text>
                </NotPermitted>
              )}
            </Group>
            <Group justify="space-between">
              <Text size="sm">{t('hosting.parking')}</Text>
              <ParkingSwitch service={service} />
            </Group>
            <Group gap="xs">
              {canCall(endpoints.service.webConstructorLogin) && (
                <Button size="xs" variant="default" loading={builder.isPending} onClick={() => builder.mutate()}>
                  {t('hosting.web_constructor')}
                </Button>
              )}
              <Button size="xs" variant="default" onClick={() => setDialog('log')}>
                {t('hosting.error_log')}
              </Button>
            </Group>
          </Stack>
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="sm">
            {t('hosting.web_resources')}
          </Title>
          <Stack gap="sm">
            <UsageMeasured service={service} />
            <UsageRow label={t('hosting.web_space')} usage={service.usage.spaceWeb} />
            <UsageRow label={t('hosting.traffic')} usage={service.usage.traffic} />
            <Group justify="space-between">
              <Text size="sm">{t('hosting.ftp_server')}</Text>
              <Text size="sm" fw={500}>
                {service.ftpServer}
              </Text>
            </Group>
            {canCall(endpoints.service.ftpLogin) && (
              <Button size="xs" variant="default" onClick={() => webFtp.mutate()} loading={webFtp.isPending}>
                {t('hosting.webftp')}
              </Button>
            )}
            <UsageRow label={t('hosting.databases')} usage={service.usage.BBDD} count />
            <UsageRow label={t('hosting.database_space')} usage={service.usage.spaceBbdd} />
            <Group justify="space-between">
              <Text size="sm">{t('hosting.database_server')}</Text>
              <Text size="sm" fw={500}>
                {service.databaseServer}
              </Text>
            </Group>
          </Stack>
        </Card>
      </SimpleGrid>
      {phpEditable && <PhpDialog service={service} opened={dialog === 'php'} onClose={close} />}
      <ErrorLogDialog id={service.id} opened={dialog === 'log'} onClose={close} />
    </Stack>
  );
}
