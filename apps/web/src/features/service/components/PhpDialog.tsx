import type { ServiceView } from '@atalaya/contract';
import { Button, Group, Select, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { onFormError } from '../../../components/hosting/formErrors.ts';
import { useActionGuard } from '../../../components/hosting/useActionGuard.ts';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { serviceKey, setPhp } from '../api/service.ts';

export const phpLabel = (t: TFunction, service: ServiceView, version: string) =>
  version === 'default' ? t('hosting.php_default', { version: service.defaultPHPVersion }) : `PHP ${version}`;

/** Only the versions at or above the service's minimum are offered (spec §5). */
export function PhpDialog({ service, opened, onClose }: { service: ServiceView; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [version, setVersion] = useState(service.phpversion);
  useActionGuard(service.id, 'service', opened, onClose);
  useEffect(() => {
    if (opened) setVersion(service.phpversion);
  }, [opened, service.phpversion]);
  const mutation = useMutation({
    mutationFn: () => setPhp(service.id, version),
    meta: { quiet: true },
    onError: onFormError(['phpVersion'], onClose),
    onSuccess: (result) => {
      client.setQueryData(serviceKey(service.id), result.data.service);
      notifySuccess(result.info);
      onClose();
    },
  });
  return (
    <Dialog opened={opened} onClose={onClose} title={t('hosting.php_version')}>
      <Stack>
        <Select
          label={t('hosting.php_version')}
          data={service.phpOptions.map((v) => ({ value: v, label: phpLabel(t, service, v) }))}
          value={version}
          onChange={(v) => v && setVersion(v)}
          allowDeselect={false}
          error={fieldError(mutation.error, 'phpVersion')}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('shell.cancel')}
          </Button>
          <Button loading={mutation.isPending} onClick={() => mutation.mutate()}>
            {t('shell.save')}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
