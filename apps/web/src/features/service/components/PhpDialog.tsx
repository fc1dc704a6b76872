import type { ServiceView } from '@atalaya/contract';
import { Select } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import type { TFunction } from '../../../lib/i18n.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { serviceKey, setPhp } from '../api/service.ts';

export const phpLabel = (t: TFunction, service: ServiceView, version: string) =>
  version === 'default' ? t('hosting.php_default', { version: service.defaultPHPVersion }) : `PHP ${version}`;

/** Only the versions at or above the service's minimum are offered. */
export function PhpDialog({ service, opened, onClose }: { service: ServiceView; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [version, setVersion] = useState(service.phpversion);
  const { check } = usePermissions(service.id);
  useEffect(() => {
    if (opened) setVersion(service.phpversion);
  }, [opened, service.phpversion]);
  const mutation = useFormMutation({
    opened,
    permission: { check, call: endpoints.service.php },
    send: () => setPhp(service.id, version),
    inputs: ['phpVersion'],
    onClose,
    onDone: (result) => client.setQueryData(serviceKey(service.id), result.data.service),
  });
  return (
    <FormDialog title={t('hosting.php_version')} opened={opened} onClose={onClose} mutation={mutation}>
      <Select
        label={t('hosting.php_version')}
        data={service.phpOptions.map((v) => ({ value: v, label: phpLabel(t, service, v) }))}
        value={version}
        onChange={(v) => v && setVersion(v)}
        allowDeselect={false}
        error={fieldError(mutation.error, 'phpVersion')}
        comboboxProps={{ withinPortal: true }}
      />
    </FormDialog>
  );
}
