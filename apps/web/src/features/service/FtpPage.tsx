import type { FtpUser } from '@atalaya/contract';
import { Button, Stack, Table, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { submitAutoForm } from '../../components/hosting/autoSubmit.ts';
import { NameCell } from '../../components/hosting/NameCell.tsx';
import { ChangePasswordDialog } from '../../components/hosting/PasswordDialogs.tsx';
import { RowMenu } from '../../components/hosting/RowMenu.tsx';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog.tsx';
import { DataList } from '../../components/ui/DataList.tsx';
import { useFormMutation } from '../../components/ui/useFormMutation.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { deleteFtp, ftpKey, ftpLogin, ftpPassword, ftpQuery } from './api/service.ts';
import { FtpDialog } from './components/FtpDialogs.tsx';
import { useService } from './ServiceWrapper.tsx';

type Open = { kind: 'create' } | { kind: 'edit' | 'password' | 'delete'; user: FtpUser } | null;

/** FTP users: user, folder as /{directorio}, WebFTP access and a row menu (docs/behaviour/service-area-dns.md#ftp). */
export default function FtpPage() {
  const { t } = useTranslation();
  const service = useService();
  const { canCall, check } = usePermissions(service.id);
  const rows = useQuery({ ...ftpQuery(service.id), enabled: canCall(endpoints.service.ftpList) });
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const selected = open && open.kind !== 'create' ? open.user : null;
  const remove = useFormMutation({
    opened: open?.kind === 'delete',
    permission: { check, call: endpoints.service.ftpDelete },
    send: () => deleteFtp(service.id, selected!.id),
    reload: [ftpKey(service.id)],
    onClose: close,
    closeOnError: true,
  });
  const webFtp = useFormMutation({ send: (user: FtpUser) => ftpLogin(service.id, user.id, user.directorio), onDone: submitAutoForm });
  const writable = canCall(endpoints.service.ftpCreate);

  return (
    <Stack>
      <Title order={2} size="h4">
        {t('hosting.ftp')}
      </Title>
      <DataList
        label={t('hosting.ftp_users')}
        rows={rows.data}
        rowKey={(u) => u.id}
        filterText={(u) => `${u.user} ${u.directorio}`}
        toolbar={
          writable && (
            <Button onClick={() => setOpen({ kind: 'create' })} data-testid="ftp-create">
              {t('hosting.ftp_create')}
            </Button>
          )
        }
        columns={[t('hosting.user'), t('hosting.folder'), t('hosting.webftp'), '']}
        renderRow={(u) => (
          <Table.Tr>
            <NameCell name={u.user} row={u} itemId={service.id} listKey={ftpKey(service.id)} writable={writable} />
            <Table.Td>/{u.directorio}</Table.Td>
            <Table.Td>
              {canCall(endpoints.service.ftpLogin) && (
                <Button size="xs" variant="light" onClick={() => webFtp.mutate(u)}>
                  {t('hosting.access')}
                </Button>
              )}
            </Table.Td>
            <RowMenu
              name={u.user}
              actions={[
                { label: t('hosting.edit_folder'), onClick: () => setOpen({ kind: 'edit', user: u }), hidden: !writable },
                { label: t('hosting.change_password'), onClick: () => setOpen({ kind: 'password', user: u }), hidden: !writable },
                {
                  label: t('hosting.delete'),
                  danger: true,
                  onClick: () => setOpen({ kind: 'delete', user: u }),
                  hidden: !writable || !u.eliminable,
                },
              ]}
            />
          </Table.Tr>
        )}
      />
      <FtpDialog
        id={service.id}
        reference={service.reference}
        user={open?.kind === 'edit' ? open.user : null}
        opened={open?.kind === 'create' || open?.kind === 'edit'}
        onClose={close}
      />
      <ChangePasswordDialog
        itemId={service.id}
        call={endpoints.service.ftpPassword}
        title={t('hosting.change_password_of', { name: selected?.user ?? '' })}
        opened={open?.kind === 'password'}
        onClose={close}
        submit={(password) => ftpPassword(service.id, selected!.id, password)}
      />
      <ConfirmDialog
        opened={open?.kind === 'delete'}
        danger
        title={t('hosting.delete')}
        message={t('hosting.delete_confirm', { name: selected?.user ?? '' })}
        confirmLabel={t('hosting.delete')}
        loading={remove.isPending}
        onConfirm={() => selected && remove.mutate()}
        onClose={close}
      />
    </Stack>
  );
}
