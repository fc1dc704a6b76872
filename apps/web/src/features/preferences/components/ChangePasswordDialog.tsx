import { LIMITS } from '@atalaya/contract';
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { fieldError, hasFieldErrors } from '../../../components/ui/fieldErrors.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useChangePassword } from '../api/changePassword.ts';

const FIELDS = ['actualPassword', 'password'] as const;

/** Current and new password; the server checks both and answers per field. */
export function ChangePasswordDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState({ actualPassword: '', password: '' });
  const change = useChangePassword();
  const close = () => {
    setFields({ actualPassword: '', password: '' });
    change.reset();
    onClose();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    change.mutate(fields, {
      onSuccess: (result) => {
        notifySuccess(result.info);
        close();
      },
      onError: (error) => {
        if (!hasFieldErrors(error, FIELDS)) notifyError(error);
      },
    });
  };
  const input = (name: (typeof FIELDS)[number]) => ({
    name,
    required: true,
    value: fields[name],
    error: fieldError(change.error, name),
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => setFields({ ...fields, [name]: event.currentTarget.value }),
  });
  return (
    <Dialog opened={opened} onClose={close} title={t('shell.change_password')}>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput {...input('actualPassword')} label={t('shell.current_password')} autoComplete="current-password" />
          <PasswordInput
            {...input('password')}
            label={t('shell.new_password')}
            description={t('shell.password_rule', { min: LIMITS.passwordMin })}
            autoComplete="new-password"
            maxLength={LIMITS.passwordMax}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('shell.cancel')}
            </Button>
            <Button type="submit" loading={change.isPending} disabled={!fields.actualPassword || !fields.password}>
              {t('shell.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
