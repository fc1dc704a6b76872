import { queryOptions } from '@tanstack/react-query';
import { call, type FormOf, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** GET /hostingapplication/list/: the provider's catalogue; logos at `{token}{appId}/logo/`. */
export const catalogueQuery = queryOptions({
  queryKey: ['hostingapplication', 'list'],
  queryFn: () => fetchData(endpoints.sites.applications, {}),
  staleTime: 5 * 60_000,
});

export const installApp = (serviceId: string, fields: FormOf<typeof endpoints.sites.install>) =>
  call(endpoints.sites.install, { id: serviceId }, fields).then((r) => r.data.installation);

export const installationQuery = (serviceId: string, id: number) =>
  queryOptions({
    queryKey: ['sites', serviceId, 'installation', id],
    queryFn: () => fetchData(endpoints.sites.installation, { id: serviceId, installId: id }).then((d) => d.installation),
  });
