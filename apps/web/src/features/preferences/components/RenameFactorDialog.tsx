import type { Factor } from '@atalaya/contract';
import { TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { factorsQuery, renameFactor } from '../api/factors.ts';

/** A new name for one of the user's factors, to tell several passkeys apart. */
export function RenameFactorDialog({ factor, onClose }: { factor: Factor | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const opened = Boolean(factor);
  const rename = useFormMutation({
    opened,
    send: () => renameFactor(factor?.id ?? 0, name),
    inputs: ['name'],
    onClose,
    reload: [factorsQuery.queryKey],
  });
  useEffect(() => {
    if (factor) setName(factor.name);
  }, [factor]);
  return (
    <FormDialog
      title={t('factors.rename_named', { name: factor?.name ?? '' })}
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={rename}
    >
      <TextInput
        label={t('factors.name')}
        name="name"
        maxLength={64}
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        error={fieldError(rename.error, 'name')}
      />
    </FormDialog>
  );
}
