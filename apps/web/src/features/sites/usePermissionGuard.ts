import type { Area } from '@atalaya/contract';
import i18next from 'i18next';
import { useCallback } from 'react';
import { notifications } from '@mantine/notifications';
import { LIMITS, canAct } from '@atalaya/contract';
import { useItemPermissions } from '../../lib/permissions.ts';

/**
 * Spec §6: a form re-reads the service's permissions and, when an action it needs is no longer
 * allowed, shows 'no permission' and closes. Answers whether the form may go on.
 */
export function usePermissionGuard(serviceId: string) {
  const permissions = useItemPermissions(serviceId);
  const { refetch } = permissions;
  const check = useCallback(
    async (areas: readonly Area[]) => {
      const fresh = await refetch();
      const map = fresh.data?.permissions;
      if (areas.every((area) => canAct(map, area))) return true;
      notifications.show({ color: 'red', message: i18next.t('main.no_permission'), autoClose: LIMITS.toastMs });
      return false;
    },
    [refetch],
  );
  return { permissions, check };
}
