import type { Enrolled } from '@atalaya/contract';
import { PasswordInput, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { bindText, fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { addPasskey, factorsQuery, type ReauthFields } from '../api/factors.ts';
import { FactorNameDialog } from './FactorNameDialog.tsx';

interface Props {
  opened: boolean;
  onClose: () => void;
  onCodes: (codes: string[]) => void;
  /** False for a user without a second factor: the first one asks for the password alone. */
  withCode: boolean;
}

const EMPTY: ReauthFields = { password: '', code: '' };

/**
 * Names a new passkey or security key and confirms it is the user (the current password or a code
 * of a factor they had before this session), then the browser's own dialog makes it.
 */
export function PasskeyDialog({ opened, onClose, onCodes, withCode }: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [reauth, setReauth] = useState(EMPTY);
  const add = useFormMutation({
    opened,
    send: () => addPasskey(name.trim(), reauth),
    inputs: ['name', 'credential', 'password', 'code'],
    onClose,
    reload: [factorsQuery.queryKey, ['user', 'info']],
    onDone: (result: { data: Enrolled }) => result.data.recoveryCodes && onCodes(result.data.recoveryCodes),
  });
  useEffect(() => {
    if (!opened) return;
    setName('');
    setReauth(EMPTY);
  }, [opened]);
  const text = bindText(reauth, (key, value) => setReauth({ ...reauth, [key]: value }), add.error);
  return (
    <FactorNameDialog
      title={t('factors.add_passkey')}
      opened={opened}
      onClose={onClose}
      mutation={add}
      submitLabel={t('factors.create_passkey')}
      submitDisabled={!name.trim() || (!reauth.password && !reauth.code.trim())}
      intro={t('factors.passkey_intro')}
      label={t('factors.passkey_name')}
      value={name}
      onChange={setName}
      error={fieldError(add.error, 'name') ?? fieldError(add.error, 'credential')}
    >
      <PasswordInput {...text('password')} label={t('shell.current_password')} autoComplete="current-password" />
      {withCode && <TextInput {...text('code')} label={t('factors.or_code')} autoComplete="one-time-code" />}
    </FactorNameDialog>
  );
}
