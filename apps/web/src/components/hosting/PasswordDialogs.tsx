import { Button, Code, CopyButton, Group, Loader, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Route } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { Dialog } from '../ui/Dialog.tsx';
import { FormDialog } from '../ui/FormDialog.tsx';
import { fieldError } from '../ui/fieldErrors.ts';
import { useFormMutation } from '../ui/useFormMutation.ts';
import { PasswordField } from './PasswordField.tsx';
import { useFreshPassword } from './useFreshPassword.ts';

interface ChangeProps {
  itemId: number;
  /** The call `submit` makes: its entry names the permission the dialog re-checks. */
  call: Route;
  title: string;
  opened: boolean;
  onClose: () => void;
  submit: (password: string) => Promise<{ info: string[] }>;
  onDone?: () => void;
}

/** Change password: a generated default, refreshable; server field errors under the field. */
export function ChangePasswordDialog({ itemId, call, title, opened, onClose, submit, onDone }: ChangeProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useFreshPassword(opened);
  const { check } = usePermissions(itemId);
  const mutation = useFormMutation({
    opened,
    permission: { check, call },
    send: () => submit(password),
    inputs: ['password'],
    onClose,
    onDone,
  });
  return (
    <FormDialog title={title} opened={opened} onClose={onClose} mutation={mutation}>
      <PasswordField
        value={password}
        onChange={setPassword}
        error={fieldError(mutation.error, 'password')}
        label={t('hosting.new_password')}
      />
    </FormDialog>
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
        query.isError ? (
          <Text c="red">{t('shell.error')}</Text>
        ) : (
          <Loader size="sm" />
        )
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
