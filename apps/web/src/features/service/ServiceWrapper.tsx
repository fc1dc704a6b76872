import { LIMITS, type ServiceView } from '@atalaya/contract';
import { Loader } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useParams } from 'react-router';
import { useDelayedFlag } from '../../components/ui/useDelayedFlag.ts';
import { reloadPermissions, setItemPermissions } from '../../lib/permissions.ts';
import type { PermissionMap } from '@atalaya/contract';
import { serviceQuery } from './api/service.ts';

const ServiceContext = createContext<ServiceView | null>(null);

/** The loaded service of the current route; only inside the wrapper. */
export function useService(): ServiceView {
  const service = useContext(ServiceContext);
  if (!service) throw new Error('useService outside the service wrapper');
  return service;
}

/**
 * Spec §2: loads the service by the route id (again when the id changes) and stores the
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
  useEffect(() => {
    // Spec §4: a failed load reloads the permissions (they may have changed meanwhile).
    if (query.isError) reloadPermissions(client, id);
  }, [client, id, query.isError]);
  if (query.isError) return null;
  if (!query.data) return slow ? <Loader aria-label={t('main.loading')} /> : null;
  return (
    <ServiceContext.Provider value={query.data}>
      <Outlet />
    </ServiceContext.Provider>
  );
}
