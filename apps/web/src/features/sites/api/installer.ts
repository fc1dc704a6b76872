import type { DatabaseView, HostingApplication, Installation, ServiceView } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { call, type Fields, get } from '../../../lib/api.ts';

/** GET /hostingapplication/list/: the provider's catalogue; logos at `{token}{appId}/logo/`. */
export const catalogueQuery = queryOptions({
  queryKey: ['hostingapplication', 'list'],
  queryFn: () => get<{ apps: HostingApplication[]; token: string }>('hostingapplication/list/'),
  staleTime: 5 * 60_000,
});

/**
 * The service (for its database limit) and its databases: the service area's calls, read here for
 * the wizard under the same cache keys as the service screens, so both stay in step.
 */
export const serviceQuery = (serviceId: string) =>
  queryOptions({ queryKey: ['service', Number(serviceId)], queryFn: () => get<{ service: ServiceView }>(`service/${serviceId}/`).then((d) => d.service) });

export const databasesQuery = (serviceId: string) =>
  queryOptions({
    queryKey: ['service', Number(serviceId), 'ddbb'],
    queryFn: () => get<{ ddbb: DatabaseView[] }>(`service/${serviceId}/ddbb/list/`).then((d) => d.ddbb),
  });

export const createDatabase = (serviceId: string, password: string) =>
  call<{ ddbb: DatabaseView }>('POST', `service/${serviceId}/ddbb/create/`, { password }).then((r) => r.data.ddbb);

export const installApp = (serviceId: string, fields: Fields) =>
  call<{ installation: Installation }>('POST', `service/${serviceId}/installapp/`, fields).then((r) => r.data.installation);

export const installationQuery = (serviceId: string, id: number) =>
  queryOptions({
    queryKey: ['sites', serviceId, 'installation', id],
    queryFn: () => get<{ installation: Installation }>(`service/${serviceId}/installapp/${id}/`).then((d) => d.installation),
  });
