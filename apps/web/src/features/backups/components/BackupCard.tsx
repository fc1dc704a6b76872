import { type Backup, formatBytes } from '@atalaya/contract';
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { secondsOf } from '../tree.ts';
import { StatusBadge, WorkProgress } from './WorkStatus.tsx';

/** One backup: when and why, its state (a bar while it runs, the reason it failed), its parts and size, and its files. */
export function BackupCard({ backup, browsing, onBrowse }: { backup: Backup; browsing: boolean; onBrowse: () => void }) {
  const { t, i18n } = useTranslation();
  const time = formatDateTime(secondsOf(backup.time), i18n.language);
  return (
    <Paper withBorder p="sm" data-testid="backup" aria-current={browsing || undefined}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="xs" wrap="wrap">
            <Text fw={600}>{time}</Text>
            <Badge variant="outline" size="sm" color="gray" style={{ '--badge-color': 'var(--mantine-color-text)' }}>
              {t(`backups.reason_${backup.reason}`)}
            </Badge>
            <StatusBadge status={backup.status} />
          </Group>
          {backup.status === 'done' && (
            <Button size="xs" variant={browsing ? 'filled' : 'light'} onClick={onBrowse} aria-label={`${t('backups.browse')}: ${time}`}>
              {t('backups.browse')}
            </Button>
          )}
        </Group>
        {backup.parts.length > 0 && <Text size="sm">{backup.parts.map((part) => t(`backups.part_${part}`)).join(' · ')}</Text>}
        {backup.status === 'done' && (
          <Text size="sm" c="dimmed">
            {t('backups.added', { added: formatBytes(backup.added), size: formatBytes(backup.size) })}
          </Text>
        )}
        <WorkProgress status={backup.status} progress={backup.progress} error={backup.error} />
      </Stack>
    </Paper>
  );
}
