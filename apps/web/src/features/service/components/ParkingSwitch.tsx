import type { ServiceView } from '@atalaya/contract';
import { Badge, Switch } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { NotPermitted } from '../../../components/ui/NotPermitted.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { serviceKey, setParking } from '../api/service.ts';

/**
 * After confirmation, enable or disable per the current state; the answer replaces the service.
 * The switch is named "Parking" and its visible label says the state it shows (Enabled, Disabled),
 * the words the read-only badge uses: a label that named one state ("parking active") read as a
 * claim beside a switch that was off.
 */
export function ParkingSwitch({ service }: { service: ServiceView }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { canCall, check } = usePermissions(service.id);
  const [asking, setAsking] = useState(false);
  const state = t(service.parkingActive ? 'hosting.enabled' : 'hosting.disabled');
  const mutation = useFormMutation({
    opened: asking,
    permission: { check, call: service.parkingActive ? endpoints.service.parkingOff : endpoints.service.parkingOn },
    send: () => setParking(service.id, !service.parkingActive),
    onDone: (result) => client.setQueryData(serviceKey(service.id), result.data.service),
    onClose: () => setAsking(false),
    closeOnError: true,
  });
  if (!canCall(endpoints.service.parkingOn)) {
    return (
      <NotPermitted>
        <Badge color={service.parkingActive ? 'green' : 'gray'} variant="light" data-testid="parking-status">
          {state}
        </Badge>
      </NotPermitted>
    );
  }
  return (
    <>
      <Switch
        aria-label={t('hosting.parking')}
        label={<span data-testid="parking-switch-state">{state}</span>}
        checked={service.parkingActive}
        onChange={() => setAsking(true)}
      />
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
