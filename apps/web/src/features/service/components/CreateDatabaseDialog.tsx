import { generatePassword } from '@atalaya/contract';
import { Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onFormError } from '../../../components/hosting/formErrors.ts';
import { PasswordField } from '../../../components/hosting/PasswordField.tsx';
import { useActionGuard } from '../../../components/hosting/useActionGuard.ts';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { createDatabase, ddbbKey, serviceKey } from '../api/service.ts';

/** A new database: the server generates its name and user; the customer picks the password. */
export function CreateDatabaseDialog({ id, opened, onClose }: { id: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [password, setPassword] = useState('');
  useActionGuard(id, 'service_ddbb', opened, onClose);
  const mutation = useMutation({
    mutationFn: () => createDatabase(id, password),
    meta: { quiet: true },
    onError: onFormError(['password', 'form'], onClose),
    onSuccess: (result) => {
      notifySuccess(result.info);
      client.invalidateQueries({ queryKey: ddbbKey(id) });
      client.invalidateQueries({ queryKey: serviceKey(id), exact: true });
      onClose();
    },
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!opened) return;
    setPassword(generatePassword());
    mutation.reset();
  }, [opened]);
  return (
    <Dialog opened={opened} onClose={onClose} title={t('hosting.ddbb_create')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('hosting.ddbb_name_note')}
          </Text>
          <PasswordField value={password} onChange={setPassword} error={fieldError(mutation.error, 'password')} />
          {fieldError(mutation.error, 'form') && (
            <Text c="red" size="sm" role="alert">
              {fieldError(mutation.error, 'form')}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('shell.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t('hosting.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
