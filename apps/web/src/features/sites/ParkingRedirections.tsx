import type { Redirection } from '@atalaya/contract';
import { Button, Group, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog.tsx';
import { useFormMutation } from '../../components/ui/useFormMutation.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import { deleteRedirection, redirectionsQuery, sitesKey } from './api/sites.ts';
import { RedirectionDialog } from './components/RedirectionDialog.tsx';
import { RedirectionsTable } from './components/RedirectionsTable.tsx';

/**
 * docs/behaviour/service-area-dns.md#service-home, parking service: the list of redirections under the parking toggle. A parking service
 * has no sites, so its redirections hang on the bare domain (decision 006); without write on
 * redirections there is no create button and no row menu (docs/behaviour/service-area-dns.md#permissions).
 */
export default function ParkingRedirections() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const permissions = usePermissions(id);
  const { check } = permissions;
  const visible = permissions.canCall(endpoints.sites.redirectionList);
  const list = useQuery({ ...redirectionsQuery(id), enabled: visible });
  const [target, setTarget] = useState<{ host: string } | { redirection: Redirection } | null>(null);
  const [pending, setPending] = useState<Redirection | null>(null);
  const remove = useFormMutation({
    opened: pending !== null,
    permission: { check, call: endpoints.sites.redirectionDelete },
    send: () => deleteRedirection(id, pending!.id),
    reload: [sitesKey(id)],
    onClose: () => setPending(null),
    closeOnError: true,
  });
  if (!visible || !permissions.data) return null;
  const canWrite = permissions.canCall(endpoints.sites.redirectionCreate);

  return (
    <>
      <Group justify="space-between" mt="md">
        <Title order={3} size="h5">
          {t('sites.parking_redirections')}
        </Title>
        {canWrite && (
          <Button size="xs" data-testid="parking-redirection-create" onClick={() => setTarget({ host: '' })}>
            {t('sites.redirection_create')}
          </Button>
        )}
      </Group>
      {list.data?.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('sites.parking_redirections_empty')}
        </Text>
      ) : (
        <RedirectionsTable
          label={t('sites.redirections_label', { name: permissions.data.reference })}
          rows={list.data ?? []}
          canWrite={canWrite}
          onEdit={(redirection) => setTarget({ redirection })}
          onDelete={setPending}
        />
      )}
      <RedirectionDialog
        serviceId={id}
        reference={permissions.data.reference}
        hosts={['']}
        target={target}
        onClose={() => setTarget(null)}
      />
      <ConfirmDialog
        opened={pending !== null}
        danger
        loading={remove.isPending}
        title={t('sites.redirection_delete')}
        message={t('sites.redirection_delete_confirm', { origin: pending?.origin ?? '' })}
        onConfirm={() => remove.mutate()}
        onClose={() => setPending(null)}
      />
    </>
  );
}
