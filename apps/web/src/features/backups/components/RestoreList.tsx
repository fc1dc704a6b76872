import type { Backup, BackupRestore } from '@atalaya/contract';
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { DataList } from '../../../components/ui/DataList.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { secondsOf } from '../tree.ts';
import { StatusBadge, WorkProgress } from './WorkStatus.tsx';

/** The service's restores, latest first: what from which backup, how, its progress and where it went. */
export function RestoreList({ restores, backups }: { restores: readonly BackupRestore[]; backups: readonly Backup[] }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string) => formatDateTime(secondsOf(iso), i18n.language);
  const backupTime = (id: number) => {
    const backup = backups.find((b) => b.id === id);
    return backup ? when(backup.time) : `#${id}`;
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby="backup-restores-title">
      <Title order={3} size="h5" id="backup-restores-title">
        {t('backups.restores')}
      </Title>
      <DataList
        label={t('backups.restores')}
        rows={restores}
        rowKey={(r) => r.id}
        renderRow={(r) => {
          const what = `${t(`backups.part_${r.part}`)}${r.path === '/' ? '' : ` ${r.path}`}`;
          return (
            <Paper withBorder p="sm" data-testid="backup-restore">
              <Stack gap={6}>
                <Group gap="xs" wrap="wrap">
                  <Text fw={600}>{when(r.time)}</Text>
                  <Badge variant="outline" size="sm" color="gray" style={{ '--badge-color': 'var(--mantine-color-text)' }}>
                    {t(`backups.target_label_${r.target}`)}
                  </Badge>
                  <StatusBadge status={r.status} />
                </Group>
                <Text size="sm" style={{ wordBreak: 'break-all' }}>
                  {t('backups.restore_line', { what, time: backupTime(r.backup) })}
                </Text>
                {r.status === 'done' && (
                  <Text size="sm" data-testid="restore-result" style={{ wordBreak: 'break-all' }}>
                    {r.target === 'copy' && r.result ? t('backups.restored_to', { result: r.result }) : t('backups.restored_in_place')}
                  </Text>
                )}
                <WorkProgress status={r.status} progress={r.progress} error={r.error} />
              </Stack>
            </Paper>
          );
        }}
      />
    </Stack>
  );
}
