import { TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { nameSuffix } from '../../../components/hosting/nameSuffix.tsx';
import { PasswordField } from '../../../components/hosting/PasswordField.tsx';
import { useFreshPassword } from '../../../components/hosting/useFreshPassword.ts';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { accountsKey, createAccount } from '../api/mail.ts';

/** New mail account: name (the part before @reference) and a generated, refreshable password. */
export function AccountDialog({ id, reference, opened, onClose }: { id: number; reference: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [password, setPassword] = useFreshPassword(opened);
  const { check } = usePermissions(id);
  const mutation = useFormMutation({
    opened,
    permission: { check, call: endpoints.service.mailCreate },
    send: () => createAccount(id, name, password),
    inputs: ['name', 'password'],
    onClose,
    onDone: () => client.invalidateQueries({ queryKey: accountsKey(id) }),
  });
  useEffect(() => {
    if (opened) setName('');
  }, [opened]);
  return (
    <FormDialog title={t('hosting.account_create')} opened={opened} onClose={onClose} mutation={mutation} submitLabel={t('hosting.create')}>
      <TextInput
        label={t('hosting.name')}
        name="name"
        required
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        {...nameSuffix(`@${reference}`)}
        error={fieldError(mutation.error, 'name')}
      />
      <PasswordField value={password} onChange={setPassword} error={fieldError(mutation.error, 'password')} />
    </FormDialog>
  );
}
