import type { Area } from '@atalaya/contract';
import { generatePassword } from '@atalaya/contract';
import { Button, Code, CopyButton, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../ui/Dialog.tsx';
import { fieldError } from '../ui/fieldErrors.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { onFormError } from './formErrors.ts';
import { PasswordField } from './PasswordField.tsx';
import { useActionGuard } from './useActionGuard.ts';

interface ChangeProps {
  itemId: number;
  area: Area;
  title: string;
  opened: boolean;
  onClose: () => void;
  submit: (password: string) => Promise<{ info: string[] }>;
  onDone?: () => void;
}

/** Change password: a generated default, refreshable; server field errors under the field. */
export function ChangePasswordDialog({ itemId, area, title, opened, onClose, submit, onDone }: ChangeProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState(generatePassword);
  useActionGuard(itemId, area, opened, onClose);
  const mutation = useMutation({
    mutationFn: () => submit(password),
    meta: { quiet: true },
    onError: onFormError(['password'], onClose),
    onSuccess: (result) => {
      notifySuccess(result.info);
      onDone?.();
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
    <Dialog opened={opened} onClose={onClose} title={title}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <Stack>
          <PasswordField value={password} onChange={setPassword} error={fieldError(mutation.error, 'password')} label={t('hosting.new_password')} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('shell.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t('shell.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}

interface ShowProps {
  title: string;
  opened: boolean;
  onClose: () => void;
  queryKey: readonly unknown[];
  load: () => Promise<string>;
}

/** Shows a stored password (decrypted by the server), with a copy button. */
export function ShowPasswordDialog({ title, opened, onClose, queryKey, load }: ShowProps) {
  const { t } = useTranslation();
  const query = useQuery({ queryKey, queryFn: load, enabled: opened, gcTime: 0, staleTime: 0 });
  return (
    <Dialog opened={opened} onClose={onClose} title={title}>
      {query.data === undefined ? (
        query.isError ? <Text c="red">{t('shell.error')}</Text> : <Loader size="sm" />
      ) : (
        <Group>
          <Code data-testid="shown-password" fz="md">
            {query.data}
          </Code>
          <CopyButton value={query.data}>
            {({ copied, copy }) => (
              <Button size="xs" variant="light" onClick={copy}>
                {copied ? t('hosting.copied') : t('hosting.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
    </Dialog>
  );
}
