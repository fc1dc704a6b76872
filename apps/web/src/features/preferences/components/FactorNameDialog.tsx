import { FACTOR_NAME_MAX } from '@atalaya/contract';
import { Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { FormDialog, type FormDialogProps } from '../../../components/ui/FormDialog.tsx';

interface Props extends Pick<FormDialogProps, 'title' | 'opened' | 'onClose' | 'mutation' | 'submitLabel' | 'submitDisabled'> {
  /** Said above the field. */
  intro?: string;
  label: string;
  value: string;
  onChange: (name: string) => void;
  /** The server's message under the field. */
  error?: string;
  /** More fields under the name (a new passkey's re-authentication). */
  children?: ReactNode;
}

/** The one question of naming a factor (a new passkey, or a new name for one): its name, as long as the server takes it. */
export function FactorNameDialog({ intro, label, value, onChange, error, children, ...dialog }: Props) {
  return (
    <FormDialog {...dialog} noValidate>
      {intro && <Text size="sm">{intro}</Text>}
      <TextInput
        label={label}
        name="name"
        maxLength={FACTOR_NAME_MAX}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        error={error}
      />
      {children}
    </FormDialog>
  );
}
