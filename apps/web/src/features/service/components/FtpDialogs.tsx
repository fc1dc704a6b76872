import { type FtpUser, LIMITS } from '@atalaya/contract';
import { TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { nameSuffix } from '../../../components/hosting/nameSuffix.tsx';
import { PasswordField } from '../../../components/hosting/PasswordField.tsx';
import { useFreshPassword } from '../../../components/hosting/useFreshPassword.ts';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { bindText, fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
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
  const [fields, setFields] = useState({ ftpUser: '', folder: '' });
  const [password, setPassword] = useFreshPassword(opened);
  const { check } = usePermissions(id);
  const mutation = useFormMutation({
    opened,
    permission: { check, call: user ? endpoints.service.ftpSave : endpoints.service.ftpCreate },
    send: () => (user ? saveFtp(id, user.id, fields.folder) : createFtp(id, { ...fields, password })),
    inputs: user ? ['folder'] : ['ftpUser', 'password', 'folder'],
    onClose,
    onDone: () => client.invalidateQueries({ queryKey: ftpKey(id) }),
  });
  useEffect(() => {
    if (opened) setFields({ ftpUser: '', folder: user ? `/${user.directorio}` : '/' });
  }, [opened, user]);
  const text = bindText(fields, (key, value) => setFields({ ...fields, [key]: value }), mutation.error);
  return (
    <FormDialog
      title={t(user ? 'hosting.ftp_edit' : 'hosting.ftp_create')}
      opened={opened}
      onClose={onClose}
      mutation={mutation}
      submitLabel={t(user ? 'shell.save' : 'hosting.create')}
    >
      {!user && (
        <TextInput label={t('hosting.user')} required maxLength={LIMITS.ftpUserMax} {...text('ftpUser')} {...nameSuffix(`.${reference}`)} />
      )}
      {!user && <PasswordField value={password} onChange={setPassword} error={fieldError(mutation.error, 'password')} />}
      <TextInput label={t('hosting.folder')} required {...text('folder')} />
    </FormDialog>
  );
}
