import type { Enrolled } from '@atalaya/contract';
import { useEffect, useState } from 'react';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { addPasskey, factorsQuery } from '../api/factors.ts';
import { FactorNameDialog } from './FactorNameDialog.tsx';

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
    <FactorNameDialog
      title={t('factors.add_passkey')}
      opened={opened}
      onClose={onClose}
      mutation={add}
      submitLabel={t('factors.create_passkey')}
      submitDisabled={!name.trim()}
      intro={t('factors.passkey_intro')}
      label={t('factors.passkey_name')}
      value={name}
      onChange={setName}
      error={fieldError(add.error, 'name') ?? fieldError(add.error, 'credential')}
    />
  );
}
