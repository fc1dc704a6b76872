import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DataList } from '../../components/ui/DataList.tsx';
import { useFormMutation } from '../../components/ui/useFormMutation.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { useParams, useSearchParams } from '../../lib/router/hooks.ts';
import { backupsKey, backupsQuery, busyOf, createBackup } from './api/backups.ts';
import { BackupCard } from './components/BackupCard.tsx';
import { FileBrowser } from './components/FileBrowser.tsx';
import { RestoreList } from './components/RestoreList.tsx';

/**
 * /admin/:id/service/backups/: the service's backups by date with their state, a backup now, the
 * schedule and the retention, the files of the backup chosen (its id and folder in the address,
 * `?backup=&path=`, so Back goes up a folder) and the restores with their progress and result.
 */
export default function BackupsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { canCall, check } = usePermissions(id);
  const list = useQuery({ ...backupsQuery(id), enabled: canCall(endpoints.backups.list) });
  const [search, setSearch] = useSearchParams();
  const create = useFormMutation({
    permission: { check, call: endpoints.backups.create },
    send: () => createBackup(id),
    reload: [backupsKey(id)],
  });
  const data = list.data;
  const busy = busyOf(data);
  const chosen = data?.backups.find((b) => b.id === Number(search.get('backup')) && b.status === 'done');
  const browse = (backup: number | null, path = '/') =>
    setSearch(backup === null ? new URLSearchParams() : new URLSearchParams({ backup: String(backup), path }));
  const spent = data ? data.schedule.usedToday >= data.schedule.perDay : false;

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2} size="h4">
          {t('backups.title')}
        </Title>
        {canCall(endpoints.backups.create) && (
          <Button
            onClick={() => create.mutate()}
            loading={create.isPending}
            disabled={!data || busy.backup || spent}
            data-testid="backup-now"
          >
            {t('backups.back_up_now')}
          </Button>
        )}
      </Group>
      {data && (
        <Stack gap={2}>
          <Text size="sm">
            {t('backups.schedule_line', {
              time: data.schedule.time,
              daily: String(data.retention.daily),
              weekly: String(data.retention.weekly),
              monthly: String(data.retention.monthly),
            })}
          </Text>
          {canCall(endpoints.backups.create) && (
            <Text size="sm" c="dimmed" data-testid="backups-used-today">
              {t('backups.used_today', { used: String(data.schedule.usedToday), limit: String(data.schedule.perDay) })}
            </Text>
          )}
        </Stack>
      )}
      {data && data.restores.length > 0 && <RestoreList restores={data.restores} backups={data.backups} />}
      <Title order={3} size="h5">
        {t('backups.list')}
      </Title>
      <DataList
        label={t('backups.list')}
        rows={data?.backups}
        rowKey={(b) => b.id}
        emptyText={t('backups.none')}
        renderRow={(b) => <BackupCard backup={b} browsing={chosen?.id === b.id} onBrowse={() => browse(b.id)} />}
      />
      {chosen && (
        <FileBrowser
          serviceId={id}
          backup={chosen}
          folder={search.get('path') ?? '/'}
          onFolder={(path) => browse(chosen.id, path)}
          onClose={() => browse(null)}
          // One restore runs at a time: the page goes back to the list, where its progress shows (Back returns to the folder).
          onRestoreQueued={() => {
            browse(null);
            window.scrollTo({ top: 0 });
          }}
        />
      )}
    </Stack>
  );
}
