import { generatePassword } from '@atalaya/contract';
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { onFormError } from '../../../components/hosting/formErrors.ts';
import { PasswordField } from '../../../components/hosting/PasswordField.tsx';
import { useActionGuard } from '../../../components/hosting/useActionGuard.ts';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { accountsKey, createAccount } from '../api/mail.ts';

/** New mail account: name (the part before @reference) and a generated, refreshable password. */
export function AccountDialog({ id, reference, opened, onClose }: { id: number; reference: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  useActionGuard(id, 'servicemail_accounts', opened, onClose);
  const mutation = useMutation({
    mutationFn: () => createAccount(id, name, password),
    meta: { quiet: true },
    onError: onFormError(['name', 'password'], onClose),
    onSuccess: (result) => {
      notifySuccess(result.info);
      client.invalidateQueries({ queryKey: accountsKey(id) });
      onClose();
    },
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!opened) return;
    setName('');
    setPassword(generatePassword());
    mutation.reset();
  }, [opened]);
  return (
    <Dialog opened={opened} onClose={onClose} title={t('hosting.account_create')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <Stack>
          <TextInput
            label={t('hosting.name')}
            name="name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            rightSection={<span>@{reference}</span>}
            rightSectionWidth={Math.min(240, 16 + reference.length * 8)}
            error={fieldError(mutation.error, 'name')}
          />
          <PasswordField value={password} onChange={setPassword} error={fieldError(mutation.error, 'password')} />
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
