import type { Enrolled } from '@atalaya/contract';
import { Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { addPasskey, factorsQuery } from '../api/factors.ts';

/** Names a new passkey or security key, then the browser's own dialog makes it. */
export function PasskeyDialog({ opened, onClose, onCodes }: { opened: boolean; onClose: () => void; onCodes: (codes: string[]) => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const add = useFormMutation({
    opened,
    send: () => addPasskey(name.trim()),
    inputs: ['name', 'credential'],
    onClose,
    reload: [factorsQuery.queryKey, ['user', 'info']],
    onDone: (result: { data: Enrolled }) => result.data.recoveryCodes && onCodes(result.data.recoveryCodes),
  });
  useEffect(() => {
    if (opened) setName('');
  }, [opened]);
  return (
    <FormDialog
      title={t('factors.add_passkey')}
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={add}
      submitLabel={t('factors.create_passkey')}
      submitDisabled={!name.trim()}
    >
      <Text size="sm">{t('factors.passkey_intro')}</Text>
      <TextInput
        label={t('factors.passkey_name')}
        name="name"
        maxLength={64}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(add.error, 'name') ?? fieldError(add.error, 'credential')}
      />
    </FormDialog>
  );
}
