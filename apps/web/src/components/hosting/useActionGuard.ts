import type { Area } from '@atalaya/contract';
import { useEffect } from 'react';
import { useItemPermissions } from '../../lib/permissions.ts';
import { notifyNoPermission } from '../../lib/notify.ts';

/**
 * Spec §6: a form reloads the permissions when it opens; without the action permission it shows
 * 'no permission' and closes.
 */
export function useActionGuard(itemId: number | string, area: Area, opened: boolean, close: () => void) {
  const permissions = useItemPermissions(itemId);
  const { refetch } = permissions;
  useEffect(() => {
    if (!opened) return;
    let live = true;
    refetch().then((result) => {
      if (!live) return;
      if (result.data?.permissions?.[area] !== 'write') {
        notifyNoPermission();
        close();
      }
    });
    return () => {
      live = false;
    };
  }, [opened, area, refetch, close]);
}
