import { Button, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import { Dialog } from './Dialog.tsx';

export interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: ReactNode;
  /** Defaults to the generic 'Confirm'. */
  confirmLabel?: string;
  /** Red confirm button, for deletes and resets. */
  danger?: boolean;
  /** Shows the confirm button busy (the call is running). */
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A yes/no question before a destructive or far-reaching action. */
export function ConfirmDialog({ opened, title, message, confirmLabel, danger, loading, onConfirm, onClose }: ConfirmDialogProps) {
  const { t } = useTranslation();
  return (
    <Dialog opened={opened} onClose={onClose} title={title} centered>
      {typeof message === 'string' ? <Text>{message}</Text> : message}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          {t('shell.cancel')}
        </Button>
        <Button color={danger ? 'red' : undefined} loading={loading} onClick={onConfirm}>
          {confirmLabel ?? t('shell.confirm')}
        </Button>
      </Group>
    </Dialog>
  );
}
