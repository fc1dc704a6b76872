import { Alert, Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { backupsQuery, lastFailure, reasonText } from '../../../lib/backups.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { Link } from '../../../lib/router/links.tsx';

/** The service's main view says when its last backup failed (issue 46), with the way to its Backups screen; nothing otherwise. */
export function BackupFailedLine({ serviceId }: { serviceId: number }) {
  const { t, i18n } = useTranslation();
  const { canCall } = usePermissions(serviceId);
  const list = useQuery({ ...backupsQuery(serviceId), enabled: canCall(endpoints.backups.list) });
  const failed = lastFailure(list.data?.backups);
  if (!failed) return null;
  return (
    <Alert color="red" variant="light" data-testid="backup-failed-line">
      {t('backups.failed_line', {
        time: formatDateTime(Date.parse(failed.time) / 1000, i18n.language),
        reason: failed.error ? reasonText(failed.error, i18n.exists, t) : t('shell.error'),
      })}{' '}
      <Anchor component={Link} to="backups/">
        {t('shell.backups')}
      </Anchor>
    </Alert>
  );
}
