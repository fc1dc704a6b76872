import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { PasswordField } from '../../../components/hosting/PasswordField.tsx';
import { useFreshPassword } from '../../../components/hosting/useFreshPassword.ts';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { createDatabase, ddbbKey, serviceKey } from '../api/service.ts';

/** A new database: the server generates its name and user; the customer picks the password. */
export function CreateDatabaseDialog({ id, opened, onClose }: { id: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [password, setPassword] = useFreshPassword(opened);
  const { check } = usePermissions(id);
  const mutation = useFormMutation({
    opened,
    permission: { check, call: endpoints.service.ddbbCreate },
    send: () => createDatabase(id, password),
    inputs: ['password', 'form'],
    onClose,
    onDone: () => {
      client.invalidateQueries({ queryKey: ddbbKey(id) });
      client.invalidateQueries({ queryKey: serviceKey(id), exact: true });
    },
  });
  return (
    <FormDialog title={t('hosting.ddbb_create')} opened={opened} onClose={onClose} mutation={mutation} submitLabel={t('hosting.create')}>
      <Text size="sm" c="dimmed">
        {t('hosting.ddbb_name_note')}
      </Text>
      <PasswordField value={password} onChange={setPassword} error={fieldError(mutation.error, 'password')} />
      {fieldError(mutation.error, 'form') && (
        <Text c="red" size="sm" role="alert">
          {fieldError(mutation.error, 'form')}
        </Text>
      )}
    </FormDialog>
  );
}
