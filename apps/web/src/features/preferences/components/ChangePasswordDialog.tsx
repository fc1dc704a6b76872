import { LIMITS } from '@atalaya/contract';
import { PasswordInput, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { bindText } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { changePassword } from '../api/changePassword.ts';

const FIELDS = ['actualPassword', 'code', 'password'] as const;
const EMPTY = { actualPassword: '', code: '', password: '' };

/**
 * Current password (or a code of a second factor the user had before this session) and new
 * password; the server checks them and answers per field. What else the change does (sessions
 * closed, API tokens revoked) is said before it is made.
 */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState(EMPTY);
  const change = useFormMutation({ opened, send: () => changePassword(fields), inputs: FIELDS, onClose });
  useEffect(() => {
    if (opened) setFields(EMPTY);
  }, [opened]);
  const text = bindText(fields, (key, value) => setFields({ ...fields, [key]: value }), change.error);
  // Sendable once it holds the current password or a code, and a new password.
  const ready = (fields.actualPassword !== '' || fields.code.trim() !== '') && fields.password !== '';
  return (
    <FormDialog title={t('shell.change_password')} noValidate opened={opened} onClose={onClose} mutation={change} submitDisabled={!ready}>
      <Text size="sm">{t('shell.password_change_effects')}</Text>
      <PasswordInput {...text('actualPassword')} label={t('shell.current_password')} autoComplete="current-password" />
      <TextInput {...text('code')} label={t('factors.or_code')} autoComplete="one-time-code" />
      <PasswordInput
        {...text('password')}
        required
        label={t('shell.new_password')}
        description={t('shell.password_rule', { min: LIMITS.passwordMin })}
        autoComplete="new-password"
        maxLength={LIMITS.passwordMax}
      />
    </FormDialog>
  );
}
