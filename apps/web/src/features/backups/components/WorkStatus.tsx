import type { BackupState } from '@atalaya/contract';
import { Badge, Progress, Stack, Text } from '@mantine/core';
import { reasonText } from '../../../lib/backups.ts';
import { useTranslation } from '../../../lib/i18n.ts';

const COLOURS: Record<BackupState, string> = { queued: 'gray', running: 'blue', done: 'green', failed: 'red' };

/** A backup's or a restore's state: its badge, a bar while it is queued or running, the reason it failed. */
export function StatusBadge({ status }: { status: BackupState }) {
  const { t } = useTranslation();
  return (
    <Badge
      color={COLOURS[status]}
      variant="light"
      size="sm"
      // The light variant's own text colour on its tint misses WCAG AA (green on pale green): the
      // page's text colour reads in both themes, as StateBadge's does.
      style={{ '--badge-color': 'var(--mantine-color-text)' }}
      data-testid={`backup-status-${status}`}
    >
      {t(`backups.status_${status}`)}
    </Badge>
  );
}

export function WorkProgress({ status, progress, error }: { status: BackupState; progress: number; error: string | null }) {
  const { t, i18n } = useTranslation();
  if (status === 'failed' && error)
    return (
      <Text size="sm" c="red" data-testid="backup-failed-reason">
        {t('backups.failed_reason', { reason: reasonText(error, i18n.exists, t) })}
      </Text>
    );
  if (status !== 'queued' && status !== 'running') return null;
  const percent = Math.round(Math.min(100, Math.max(0, progress)));
  const label = t('backups.progress_of', { percent: String(percent) });
  return (
    <Stack gap={2}>
      <Progress value={percent} animated striped aria-label={label} />
      <Text size="xs" c="dimmed" role="status">
        {label}
      </Text>
    </Stack>
  );
}
