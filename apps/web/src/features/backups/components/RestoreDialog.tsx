import type { Backup, RestoreTarget } from '@atalaya/contract';
import { Alert, Code, Radio, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { backupsKey, restoreBackup } from '../api/backups.ts';
import { copyOffered, restoreTargetOf, secondsOf, segmentsOf } from '../tree.ts';

const INPUTS = ['part', 'path', 'target'] as const;

interface Props {
  serviceId: string;
  backup: Backup;
  /** The entry of the tree to put back; null: the dialog is closed. */
  treePath: string | null;
  onClose: () => void;
  /** After the restore was queued: the page shows its progress. */
  onQueued: () => void;
}

/** Restore one entry of a backup beside the live data (a copy) or over it (replace, after a backup of what it overwrites). */
export function RestoreDialog({ serviceId, backup, treePath, onClose, onQueued }: Props) {
  const { t, i18n } = useTranslation();
  const { check } = usePermissions(serviceId);
  const target = treePath === null ? null : restoreTargetOf(treePath);
  const copy = target !== null && copyOffered(target.part);
  const [how, setHow] = useState<RestoreTarget>('copy');
  const opened = target !== null;
  useEffect(() => {
    if (opened) setHow(copy ? 'copy' : 'replace');
  }, [opened, copy]);
  const mutation = useFormMutation({
    opened,
    inputs: INPUTS,
    permission: { check, call: endpoints.backups.restore },
    send: () => restoreBackup(serviceId, backup.id, { part: target!.part, path: target!.path, target: how }),
    reload: [backupsKey(serviceId)],
    onDone: onQueued,
    onClose,
  });
  const segments = segmentsOf(treePath ?? '/');
  const name = segments.length === 1 ? t(`backups.part_${segments[0]}`) : (segments.at(-1) ?? '');
  const misplaced = fieldError(mutation.error, 'part') ?? fieldError(mutation.error, 'path');
  return (
    <FormDialog
      title={t('backups.restore_title', { what: name })}
      opened={opened}
      onClose={onClose}
      mutation={mutation}
      submitLabel={t('backups.restore')}
    >
      <Stack gap="sm">
        <Text size="sm">
          {t('backups.restore_from', { time: formatDateTime(secondsOf(backup.time), i18n.language) })}{' '}
          <Code style={{ wordBreak: 'break-all' }}>{treePath}</Code>
        </Text>
        {misplaced && (
          <Text size="sm" c="red" role="alert">
            {misplaced}
          </Text>
        )}
        <Radio.Group
          name="target"
          label={t('backups.how')}
          value={how}
          onChange={(value) => setHow(value as RestoreTarget)}
          error={fieldError(mutation.error, 'target')}
        >
          <Stack gap="xs" mt="xs">
            {copy && target && (
              <Radio value="copy" label={t('backups.target_copy')} description={t(`backups.target_copy_${target.part}`)} />
            )}
            <Radio value="replace" label={t('backups.target_replace')} />
          </Stack>
        </Radio.Group>
        {!copy && <Text size="sm">{t('backups.zone_copy')}</Text>}
        {how === 'replace' && (
          <Alert color="red" variant="light" title={t('backups.target_replace')} data-testid="replace-warning">
            {t('backups.replace_warning')}
          </Alert>
        )}
      </Stack>
    </FormDialog>
  );
}
