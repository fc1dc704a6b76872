import { TextInput, type TextInputProps } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import { ipValid, typeIp } from './ipInput.ts';

export interface IpInputProps extends Omit<TextInputProps, 'value' | 'onChange'> {
  value: string;
  onChange: (value: string) => void;
  /** Partial mode: one to three groups are valid too. */
  partial?: boolean;
}

/** An IPv4 field that shapes the text as it is typed and says 'IP Invalida' once left invalid. */
export function IpInput({ value, onChange, partial, error, onBlur, ...props }: IpInputProps) {
  const { t } = useTranslation();
  const [left, setLeft] = useState(false);
  const invalid = left && !ipValid(value, partial);
  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      {...props}
      value={value}
      onChange={(e) => onChange(typeIp(value, e.currentTarget.value))}
      onBlur={(e) => {
        // Leaving for a button (Save, Cancel): no message now, or the layout would shift under the
        // pointer between mousedown and mouseup and swallow the click; the server answers instead.
        if (!(e.relatedTarget instanceof HTMLButtonElement)) setLeft(true);
        onBlur?.(e);
      }}
      error={error ?? (invalid ? t('validation.ipv4') : undefined)}
    />
  );
}
