import { type FtpUser, generatePassword, LIMITS } from '@atalaya/contract';
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
import { createFtp, ftpKey, saveFtp } from '../api/service.ts';

interface Props {
  id: number;
  reference: string;
  /** null: create; a user: edit its folder. */
  user: FtpUser | null;
  opened: boolean;
  onClose: () => void;
}

/** Create (user ≤ 10 characters shown with .{reference}, password, folder) or edit an FTP user's folder. */
export function FtpDialog({ id, reference, user, opened, onClose }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [ftpUser, setFtpUser] = useState('');
  const [password, setPassword] = useState('');
  const [folder, setFolder] = useState('');
  useActionGuard(id, 'service_ftp', opened, onClose);
  const fields = user ? ['folder'] : ['ftpUser', 'password', 'folder'];
  const mutation = useMutation({
    mutationFn: () => (user ? saveFtp(id, user.id, folder) : createFtp(id, { ftpUser, password, folder })),
    meta: { quiet: true },
    onError: onFormError(fields, onClose),
    onSuccess: (result) => {
      notifySuccess(result.info);
      client.invalidateQueries({ queryKey: ftpKey(id) });
      onClose();
    },
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!opened) return;
    setFtpUser('');
    setPassword(generatePassword());
    setFolder(user ? `/${user.directorio}` : '/');
    mutation.reset();
  }, [opened, user]);
  return (
    <Dialog opened={opened} onClose={onClose} title={t(user ? 'hosting.ftp_edit' : 'hosting.ftp_create')}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          mutation.mutate();
        }}
      >
        <Stack>
          {!user && (
            <TextInput
              label={t('hosting.user')}
              name="ftpUser"
              required
              maxLength={LIMITS.ftpUserMax}
              value={ftpUser}
              onChange={(e) => setFtpUser(e.currentTarget.value)}
              rightSection={<span className="hosting-suffix">.{reference}</span>}
              rightSectionWidth={Math.min(240, 12 + reference.length * 8)}
              error={fieldError(mutation.error, 'ftpUser')}
            />
          )}
          {!user && <PasswordField value={password} onChange={setPassword} error={fieldError(mutation.error, 'password')} />}
          <TextInput
            label={t('hosting.folder')}
            name="folder"
            required
            value={folder}
            onChange={(e) => setFolder(e.currentTarget.value)}
            error={fieldError(mutation.error, 'folder')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('shell.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t(user ? 'shell.save' : 'hosting.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
