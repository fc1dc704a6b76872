import { type Area, canAct, type DomainAnswer, } from '@atalaya/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { notifyError, notifyNoPermission } from '../../lib/notify.ts';
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
      notifyNoPermission();
      return false;
    },
    [client, id],
  );
}
