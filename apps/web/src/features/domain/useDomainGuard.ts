import { type Area, canAct, type DomainAnswer, LIMITS } from '@atalaya/contract';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useCallback } from 'react';
import { notifyError } from '../../lib/notify.ts';
import { setItemPermissions } from '../../lib/permissions.ts';
import { domainQuery } from './api/domain.ts';

/**
 * Spec §6: before an action the domain is reloaded; its answer carries the user's permissions,
 * which replace the cached ones. When the action is no longer allowed, 'no permission' shows
 * and the caller closes its dialog. Answers whether the action may go on.
 */
export function useDomainGuard(id: number) {
  const client = useQueryClient();
  return useCallback(
    async (area: Area) => {
      let fresh: DomainAnswer;
      try {
        fresh = await client.fetchQuery({ ...domainQuery(id), staleTime: 0 });
      } catch (error) {
        notifyError(error);
        return false;
      }
      setItemPermissions(client, id, fresh.domain.permissions);
      if (canAct(fresh.domain.permissions, area)) return true;
      notifications.show({ color: 'red', message: i18next.t('main.no_permission'), autoClose: LIMITS.toastMs });
      return false;
    },
    [client, id],
  );
}
