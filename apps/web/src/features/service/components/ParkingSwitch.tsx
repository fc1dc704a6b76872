import type { ServiceView } from '@atalaya/contract';
import { Badge, Switch } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { NotPermitted } from '../../../components/ui/NotPermitted.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { serviceKey, setParking } from '../api/service.ts';

/** After confirmation, enable or disable per the current state; the answer replaces the service. */
export function ParkingSwitch({ service }: { service: ServiceView }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { canAct } = usePermissions(service.id);
  const [asking, setAsking] = useState(false);
  const mutation = useMutation({
    mutationFn: () => setParking(service.id, !service.parkingActive),
    onSuccess: (result) => {
      client.setQueryData(serviceKey(service.id), result.data.service);
      notifySuccess(result.info);
      setAsking(false);
    },
    onError: () => setAsking(false),
  });
  if (!canAct('service_parking')) {
    return (
      <NotPermitted>
        <Badge color={service.parkingActive ? 'green' : 'gray'} variant="light" data-testid="parking-status">
          {t(service.parkingActive ? 'hosting.enabled' : 'hosting.disabled')}
        </Badge>
      </NotPermitted>
    );
  }
  return (
    <>
      <Switch label={t('hosting.parking_active')} checked={service.parkingActive} onChange={() => setAsking(true)} />
      <ConfirmDialog
        opened={asking}
        title={t('hosting.parking')}
        message={t(service.parkingActive ? 'hosting.parking_confirm_off' : 'hosting.parking_confirm_on')}
        loading={mutation.isPending}
        onConfirm={() => mutation.mutate()}
        onClose={() => setAsking(false)}
      />
    </>
  );
}
