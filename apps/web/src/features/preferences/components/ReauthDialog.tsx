import { PasswordInput, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { bindText } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { factorsQuery, type ReauthFields } from '../api/factors.ts';

interface Props<R> {
  opened: boolean;
  onClose: () => void;
  title: string;
  intro: string;
  submitLabel: string;
  /** The call that needs re-authentication (adding or removing a factor, new recovery codes). */
  send: (fields: ReauthFields) => Promise<R>;
  onDone?: (result: R) => void;
  /** False for a user without a second factor: only the password can prove it is them. */
  withCode?: boolean;
}

const EMPTY: ReauthFields = { password: '', code: '' };

/**
 * The current password or a code of a second factor the user had before this session, before a
 * change a stolen session must not make alone.
 */
export function ReauthDialog<R extends { info: string[] }>({
  opened,
  onClose,
  title,
  intro,
  submitLabel,
  send,
  onDone,
  withCode = true,
}: Props<R>) {
  const { t } = useTranslation();
  const [fields, setFields] = useState(EMPTY);
  const mutation = useFormMutation({
    opened,
    send: () => send(fields),
    inputs: ['password', 'code'],
    onClose,
    onDone,
    reload: [factorsQuery.queryKey, ['user', 'info']],
  });
  useEffect(() => {
    if (opened) setFields(EMPTY);
  }, [opened]);
  const text = bindText(fields, (key, value) => setFields({ ...fields, [key]: value }), mutation.error);
  return (
    <FormDialog
      title={title}
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={mutation}
      submitLabel={submitLabel}
      submitDisabled={!fields.password && !fields.code.trim()}
    >
      <Text size="sm">{intro}</Text>
      <PasswordInput {...text('password')} label={t('shell.current_password')} autoComplete="current-password" />
      {withCode && <TextInput {...text('code')} label={t('factors.or_code')} autoComplete="one-time-code" />}
    </FormDialog>
  );
}
