import type { PermissionMap } from '@atalaya/contract';
import { LIMITS, type ServiceView } from '@atalaya/contract';
import { Loader } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect } from 'react';
import { useDelayedFlag } from '../../components/ui/useDelayedFlag.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { setItemPermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import { Outlet } from '../../lib/router/links.tsx';
import { serviceQuery } from './api/service.ts';

const ServiceContext = createContext<ServiceView | null>(null);

/** The loaded service of the current route; only inside the wrapper. */
export function useService(): ServiceView {
  const service = useContext(ServiceContext);
  if (!service) throw new Error('useService outside the service wrapper');
  return service;
}

/**
 * docs/behaviour/service-area-dns.md#screens: loads the service by the route id (again when the id changes) and stores the
 * permissions it answers, so every view and form of the service sees them.
 */
export function ServiceWrapper() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const client = useQueryClient();
  const query = useQuery(serviceQuery(id));
  const slow = useDelayedFlag(query.isPending, LIMITS.skeletonDelayMs);
  const permissions = query.data?.permissions;
  useEffect(() => {
    if (permissions) setItemPermissions(client, id, permissions as PermissionMap);
  }, [client, id, permissions]);
  // A failed load is the route's error (app/shell/RouteError.tsx): the 404 view, the permissions reloaded.
  if (query.isError && !query.data) throw query.error;
  if (!query.data) return slow ? <Loader aria-label={t('main.loading')} /> : null;
  return (
    <ServiceContext.Provider value={query.data}>
      <Outlet />
    </ServiceContext.Provider>
  );
}
