import type { ServiceView } from '@atalaya/contract';
import { Alert, Anchor } from '@mantine/core';
import { reasonText } from '../../../lib/backups.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { Link } from '../../../lib/router/links.tsx';

/**
 * The service's main view says when its last backup failed for good (the service answer carries it
 * to whom may see the backups), with the way to its Backups screen; nothing otherwise.
 */
export function BackupFailedLine({ service }: { service: ServiceView }) {
  const { t, i18n } = useTranslation();
  const failed = service.backupFailed;
  if (!failed) return null;
  return (
    <Alert color="red" variant="light" data-testid="backup-failed-line">
      {t('backups.failed_line', {
        time: formatDateTime(Date.parse(failed.time) / 1000, i18n.language),
        reason: failed.reason ? reasonText(failed.reason, i18n.exists, t) : t('shell.error'),
      })}{' '}
      <Anchor component={Link} to="backups/">
        {t('shell.backups')}
      </Anchor>
    </Alert>
  );
}
