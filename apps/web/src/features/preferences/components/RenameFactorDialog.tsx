import type { Factor } from '@atalaya/contract';
import { useEffect, useState } from 'react';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { factorsQuery, renameFactor } from '../api/factors.ts';
import { FactorNameDialog } from './FactorNameDialog.tsx';

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
    <FactorNameDialog
      title={t('factors.rename_named', { name: factor?.name ?? '' })}
      opened={opened}
      onClose={onClose}
      mutation={rename}
      label={t('factors.name')}
      value={name}
      onChange={setName}
      error={fieldError(rename.error, 'name')}
    />
  );
}
