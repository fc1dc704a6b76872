import type { Area } from '@atalaya/contract';
import { useCallback } from 'react';
import { canAct } from '@atalaya/contract';
import { useItemPermissions } from '../../lib/permissions.ts';
import { notifyNoPermission } from '../../lib/notify.ts';

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
      notifyNoPermission();
      return false;
    },
    [refetch],
  );
  return { permissions, check };
}
