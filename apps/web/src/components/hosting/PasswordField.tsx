import { generatePassword } from '@atalaya/contract';
import { ActionIcon, PasswordInput, Tooltip } from '@mantine/core';
import { useTranslation } from '../../lib/i18n.ts';

interface Props {
  value: string;
  onChange: (value: string) => void;
  error?: string;
  label?: string;
}

/** A required password with a generated 14-character default and a button that makes a new one. */
export function PasswordField({ value, onChange, error, label }: Props) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      label={label ?? t('hosting.password')}
      name="password"
      required
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      autoComplete="new-password"
      leftSection={
        <Tooltip label={t('hosting.generate')}>
          <ActionIcon variant="subtle" aria-label={t('hosting.generate')} onClick={() => onChange(generatePassword())}>
            ↻
          </ActionIcon>
        </Tooltip>
      }
      leftSectionPointerEvents="all"
    />
  );
}
