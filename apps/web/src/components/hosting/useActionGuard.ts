import type { Area } from '@atalaya/contract';
import { useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { useItemPermissions } from '../../lib/permissions.ts';

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
        notifications.show({ color: 'red', message: i18next.t('main.no_permission') });
        close();
      }
    });
    return () => {
      live = false;
    };
  }, [opened, area, refetch, close]);
}
