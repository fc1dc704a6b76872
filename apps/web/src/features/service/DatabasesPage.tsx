import type { DatabaseView } from '@atalaya/contract';
import { formatBytes } from '@atalaya/contract';
import { Button, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { saveFile, submitAutoForm } from '../../components/hosting/autoSubmit.ts';
import { ChangePasswordDialog, ShowPasswordDialog } from '../../components/hosting/PasswordDialogs.tsx';
import { RowMenu } from '../../components/hosting/RowMenu.tsx';
import { StateBadge } from '../../components/hosting/StateBadge.tsx';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog.tsx';
import { DataList } from '../../components/ui/DataList.tsx';
import { useFormMutation } from '../../components/ui/useFormMutation.ts';
import { endpoints, type Route } from '../../lib/endpoints.ts';
import { formatDate } from '../../lib/format.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import {
  changeDatabasePassword,
  databaseLogin,
  databasePassword,
  ddbbKey,
  ddbbQuery,
  deleteDatabase,
  dumpDatabase,
  toggleExternal,
} from './api/service.ts';
import { CreateDatabaseDialog } from './components/CreateDatabaseDialog.tsx';
import { useService } from './ServiceWrapper.tsx';

type Kind = 'show' | 'password' | 'external' | 'delete';
type Open = { kind: 'create' } | { kind: Kind; db: DatabaseView } | null;

/** Databases: name, user, phpMyAdmin access and a row menu (docs/behaviour/service-area-dns.md#databases). */
export default function DatabasesPage() {
  const { t, i18n } = useTranslation();
  const service = useService();
  const { canCall, check } = usePermissions(service.id);
  const rows = useQuery({ ...ddbbQuery(service.id), enabled: canCall(endpoints.service.ddbbList) });
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const selected = open && open.kind !== 'create' ? open.db : null;
  const confirmation = (kind: Kind, call: Route, send: (db: DatabaseView) => Promise<{ info: string[] }>) => ({
    opened: open?.kind === kind,
    permission: { check, call },
    send: () => send(selected!),
    reload: [ddbbKey(service.id)],
    onClose: close,
    closeOnError: true,
  });
  const remove = useFormMutation(confirmation('delete', endpoints.service.ddbbDelete, (db) => deleteDatabase(service.id, db.id)));
  const external = useFormMutation(
    confirmation('external', endpoints.service.ddbbExternalAccess, (db) => toggleExternal(service.id, db.id)),
  );
  const writable = canCall(endpoints.service.ddbbCreate);
  const count = rows.data?.filter((d) => d.state !== 'deleting').length ?? 0;
  // Creation only below the service's database limit.
  const canCreate = writable && count < service.usage.BBDD.limit;
  const phpMyAdmin = useFormMutation({ send: (db: DatabaseView) => databaseLogin(service.id, db.id), onDone: submitAutoForm });
  const dump = useFormMutation({
    permission: { check, call: endpoints.service.ddbbDump },
    send: (db: DatabaseView) => dumpDatabase(service.id, db.id),
    onDone: saveFile,
  });

  return (
    <Stack>
      <Title order={2} size="h4">
        {t('hosting.databases')}
      </Title>
      <DataList
        label={t('hosting.databases')}
        rows={rows.data}
        rowKey={(d) => d.id}
        filterText={(d) => `${d.bbdd} ${d.user}`}
        toolbar={
          writable && (
            <Button onClick={() => setOpen({ kind: 'create' })} disabled={!canCreate} data-testid="ddbb-create">
              {t('hosting.ddbb_create')}
            </Button>
          )
        }
        columns={[t('hosting.database'), t('hosting.user'), t('hosting.size'), t('hosting.created'), 'phpMyAdmin', '']}
        renderRow={(d) => (
          <Table.Tr>
            <Table.Td>
              {d.bbdd}
              {d.externalAccess && (
                <Text span size="xs" c="dimmed" ml="xs">
                  ({t('hosting.external_access')})
                </Text>
              )}
              <StateBadge
                state={d.state}
                retry={writable && { itemId: service.id, job: d.job, listKey: ddbbKey(service.id), name: d.bbdd }}
              />
            </Table.Td>
            <Table.Td>{d.user}</Table.Td>
            <Table.Td>{formatBytes(d.usage)}</Table.Td>
            <Table.Td>{formatDate(d.createdTS, i18n.language)}</Table.Td>
            <Table.Td>
              {canCall(endpoints.service.ddbbLogin) && (
                <Button size="xs" variant="light" onClick={() => phpMyAdmin.mutate(d)}>
                  {t('hosting.access')}
                </Button>
              )}
            </Table.Td>
            <RowMenu
              name={d.bbdd}
              actions={[
                {
                  label: t('hosting.show_password'),
                  onClick: () => setOpen({ kind: 'show', db: d }),
                  hidden: !canCall(endpoints.service.ddbbGet),
                },
                { label: t('hosting.change_password'), onClick: () => setOpen({ kind: 'password', db: d }), hidden: !writable },
                { label: t('hosting.dump'), onClick: () => dump.mutate(d), hidden: !writable },
                {
                  label: t(d.externalAccess ? 'hosting.external_off' : 'hosting.external_on'),
                  onClick: () => setOpen({ kind: 'external', db: d }),
                  hidden: !writable,
                },
                {
                  label: t('hosting.delete'),
                  danger: true,
                  onClick: () => setOpen({ kind: 'delete', db: d }),
                  hidden: !writable || !d.eliminable,
                },
              ]}
            />
          </Table.Tr>
        )}
      />
      <CreateDatabaseDialog id={service.id} opened={open?.kind === 'create'} onClose={close} />
      <ShowPasswordDialog
        title={t('hosting.password_of', { name: selected?.bbdd ?? '' })}
        opened={open?.kind === 'show'}
        onClose={close}
        queryKey={['service', service.id, 'ddbb', selected?.id, 'password']}
        load={() => databasePassword(service.id, selected!.id)}
      />
      <ChangePasswordDialog
        itemId={service.id}
        call={endpoints.service.ddbbPassword}
        title={t('hosting.change_password_of', { name: selected?.bbdd ?? '' })}
        opened={open?.kind === 'password'}
        onClose={close}
        submit={(password) => changeDatabasePassword(service.id, selected!.id, password)}
      />
      <ConfirmDialog
        opened={open?.kind === 'external'}
        title={t('hosting.external_access')}
        message={t(selected?.externalAccess ? 'hosting.external_confirm_off' : 'hosting.external_confirm_on', {
          name: selected?.bbdd ?? '',
        })}
        loading={external.isPending}
        onConfirm={() => selected && external.mutate()}
        onClose={close}
      />
      <ConfirmDialog
        opened={open?.kind === 'delete'}
        danger
        title={t('hosting.delete')}
        message={t('hosting.delete_confirm', { name: selected?.bbdd ?? '' })}
        confirmLabel={t('hosting.delete')}
        loading={remove.isPending}
        onConfirm={() => selected && remove.mutate()}
        onClose={close}
      />
    </Stack>
  );
}
