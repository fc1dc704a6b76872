import { type Backup, type BackupEntry, formatBytes } from '@atalaya/contract';
import { ActionIcon, Alert, Anchor, Box, Breadcrumbs, Button, Group, Menu, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { saveFile } from '../../../components/hosting/autoSubmit.ts';
import { DataList } from '../../../components/ui/DataList.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { ApiFailure } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { errorText } from '../../../lib/notify.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { backupFilesQuery, downloadFromBackup } from '../api/backups.ts';
import { childPath, crumbsOf, restoreTargetOf, secondsOf, segmentsOf } from '../tree.ts';
import { RestoreDialog } from './RestoreDialog.tsx';

interface Props {
  serviceId: string;
  backup: Backup;
  /** The folder shown, a path of the backup's tree (the address keeps it, so Back goes up). */
  folder: string;
  onFolder: (path: string) => void;
  onClose: () => void;
  onRestoreQueued: () => void;
}

/** One backup's files: breadcrumbs, the folder's entries, and per entry a download and a restore. */
export function FileBrowser({ serviceId, backup, folder, onFolder, onClose, onRestoreQueued }: Props) {
  const { t, i18n } = useTranslation();
  const { canCall, check } = usePermissions(serviceId);
  const files = useQuery(backupFilesQuery(serviceId, backup.id, folder));
  const [restoring, setRestoring] = useState<string | null>(null);
  const download = useFormMutation({
    permission: { check, call: endpoints.backups.download },
    send: (path: string) => downloadFromBackup(serviceId, backup.id, path),
    onDone: saveFile,
  });
  const canRestore = canCall(endpoints.backups.restore);
  const atTop = segmentsOf(folder).length === 0;
  const time = formatDateTime(secondsOf(backup.time), i18n.language);
  // The top lists the parts: each is named as the screen names them.
  const nameOf = (entry: BackupEntry) => (atTop ? t(`backups.part_${entry.name}`, { defaultValue: entry.name }) : entry.name);
  const failure = files.error;
  // Chosen below a phone's screenful of backups: the files come into view.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (backup.id) section.current?.scrollIntoView?.({ block: 'start' });
  }, [backup.id]);

  return (
    <Paper ref={section} withBorder p="sm" component="section" aria-labelledby="backup-files-title" data-testid="backup-files">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={3} size="h5" id="backup-files-title">
            {t('backups.files_of', { time })}
          </Title>
          <Button size="xs" variant="default" onClick={onClose}>
            {t('backups.close_files')}
          </Button>
        </Group>
        <Breadcrumbs component="nav" aria-label={t('backups.path')} separatorMargin={4} style={{ flexWrap: 'wrap', rowGap: 4 }}>
          {[{ name: t('backups.top'), path: '/' }, ...crumbsOf(folder)].map((crumb, i, all) =>
            i === all.length - 1 ? (
              <Text key={crumb.path} size="sm" fw={500} aria-current="location" style={{ wordBreak: 'break-all' }}>
                {i === 1 ? t(`backups.part_${crumb.name}`, { defaultValue: crumb.name }) : crumb.name}
              </Text>
            ) : (
              <Anchor key={crumb.path} component="button" type="button" size="sm" onClick={() => onFolder(crumb.path)}>
                {i === 1 ? t(`backups.part_${crumb.name}`, { defaultValue: crumb.name }) : crumb.name}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure instanceof ApiFailure && failure.errors[0] ? failure.errors[0] : errorText(failure)}
          </Alert>
        ) : (
          <DataList
            label={t('backups.files')}
            rows={files.data?.entries}
            rowKey={(e) => e.name}
            filterText={(e) => e.name}
            emptyText={t('backups.folder_empty')}
            renderRow={(entry) => {
              const path = childPath(folder, entry.name);
              const name = nameOf(entry);
              return (
                <Group wrap="nowrap" justify="space-between" gap="xs" data-testid="backup-entry">
                  <Box style={{ minWidth: 0, flex: 1 }}>
                    {entry.type === 'dir' ? (
                      <Anchor
                        component="button"
                        type="button"
                        fw={500}
                        onClick={() => onFolder(path)}
                        aria-label={t('backups.open_folder', { name })}
                        style={{ maxWidth: '100%', wordBreak: 'break-all', textAlign: 'start' }}
                      >
                        {name}/
                      </Anchor>
                    ) : (
                      <Text fw={500} style={{ wordBreak: 'break-all' }}>
                        {name}
                      </Text>
                    )}
                    <Text size="xs" c="dimmed">
                      {[
                        t(`backups.type_${entry.type}`),
                        entry.type === 'dir' ? null : formatBytes(entry.size),
                        formatDateTime(secondsOf(entry.mtime), i18n.language),
                      ]
                        .filter(Boolean)
                        .join(' · ')}
                    </Text>
                  </Box>
                  <Menu position="bottom-end" withinPortal>
                    <Menu.Target>
                      <ActionIcon variant="subtle" size="lg" aria-label={t('hosting.row_menu', { name })}>
                        ⋮
                      </ActionIcon>
                    </Menu.Target>
                    <Menu.Dropdown>
                      <Menu.Item onClick={() => download.mutate(path)}>{t('backups.download')}</Menu.Item>
                      {canRestore && restoreTargetOf(path) && (
                        <Menu.Item onClick={() => setRestoring(path)}>{t('backups.restore')}</Menu.Item>
                      )}
                    </Menu.Dropdown>
                  </Menu>
                </Group>
              );
            }}
          />
        )}
      </Stack>
      <RestoreDialog
        serviceId={serviceId}
        backup={backup}
        treePath={restoring}
        onClose={() => setRestoring(null)}
        onQueued={onRestoreQueued}
      />
    </Paper>
  );
}
