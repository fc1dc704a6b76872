import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { setItemPermissions, usePermissions } from '../../lib/permissions.ts';
import { domainQuery } from './api/domain.ts';

/**
 * The permission hook on a domain: before an action the domain is reloaded, and its answer carries
 * the user's permissions, which replace the cached ones.
 */
export function useDomainPermissions(id: number) {
  const client = useQueryClient();
  const reload = useCallback(async () => {
    const fresh = await client.fetchQuery({ ...domainQuery(id), staleTime: 0 });
    setItemPermissions(client, id, fresh.domain.permissions);
    return fresh.domain.permissions;
  }, [client, id]);
  return usePermissions(id, { reload });
}
