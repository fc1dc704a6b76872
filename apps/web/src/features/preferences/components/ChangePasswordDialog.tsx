import { LIMITS } from '@atalaya/contract';
import { PasswordInput, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { changePassword } from '../api/changePassword.ts';

const FIELDS = ['actualPassword', 'code', 'password'] as const;
const EMPTY = { actualPassword: '', code: '', password: '' };

/** Current password (or a second-factor code) and new password; the server checks them and answers per field. */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState(EMPTY);
  const change = useFormMutation({ opened, send: () => changePassword(fields), inputs: FIELDS, onClose });
  useEffect(() => {
    if (opened) setFields(EMPTY);
  }, [opened]);
  const input = (name: (typeof FIELDS)[number]) => ({
    name,
    required: true,
    value: fields[name],
    error: fieldError(change.error, name),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setFields({ ...fields, [name]: event.currentTarget.value }),
  });
  return (
    <FormDialog
      title={t('shell.change_password')}
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={change}
      submitDisabled={(!fields.actualPassword && !fields.code.trim()) || !fields.password}
    >
      <PasswordInput {...input('actualPassword')} required={false} label={t('shell.current_password')} autoComplete="current-password" />
      <TextInput {...input('code')} required={false} label={t('factors.or_code')} autoComplete="one-time-code" />
      <PasswordInput
        {...input('password')}
        label={t('shell.new_password')}
        description={t('shell.password_rule', { min: LIMITS.passwordMin })}
        autoComplete="new-password"
        maxLength={LIMITS.passwordMax}
      />
    </FormDialog>
  );
}
