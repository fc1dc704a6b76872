import { Button, Group, type ModalProps, Stack } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import { Dialog } from './Dialog.tsx';

export interface FormDialogProps {
  title: string;
  opened: boolean;
  onClose: () => void;
  /** The call the form makes: Enter or the submit button runs it, and the button is busy while it runs. */
  mutation: { mutate: () => void; isPending: boolean };
  /** Checks made before the call (marking every field touched, say); false keeps the call from running. */
  beforeSubmit?: () => boolean;
  /** Defaults to 'Save'. */
  submitLabel?: string;
  /** The submit button greyed out, e.g. while the form's data is still loading. */
  submitDisabled?: boolean;
  /** The server checks the fields and answers under each one, instead of the browser's own bubbles. */
  noValidate?: boolean;
  size?: ModalProps['size'];
  children: ReactNode;
}

/** Every form dialog: its fields, then Cancel and the submit button; Enter or the button submits. */
export function FormDialog({
  title,
  opened,
  onClose,
  mutation,
  beforeSubmit,
  submitLabel,
  submitDisabled,
  noValidate,
  size,
  children,
}: FormDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog opened={opened} onClose={onClose} title={title} size={size}>
      <form
        noValidate={noValidate}
        onSubmit={(event) => {
          event.preventDefault();
          if (beforeSubmit?.() !== false) mutation.mutate();
        }}
      >
        <Stack>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('shell.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending} disabled={submitDisabled}>
              {submitLabel ?? t('shell.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
