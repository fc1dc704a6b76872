import { queryOptions } from '@tanstack/react-query';
import { call, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** Zone import, the provider's templates and the zone's history (kept apart from the record calls). */
const zone = (id: string) => ({ id });

export const historyKey = (serviceId: string) => ['dns', serviceId, 'history'] as const;
export const historyQuery = (serviceId: string) =>
  queryOptions({
    queryKey: historyKey(serviceId),
    queryFn: () => fetchData(endpoints.dns.history, zone(serviceId)).then((d) => d.changes),
  });
export const templatesQuery = (serviceId: string) =>
  queryOptions({
    queryKey: ['dns', serviceId, 'templates'],
    queryFn: () => fetchData(endpoints.dns.templates, zone(serviceId)).then((d) => d.templates),
  });

export const previewImport = (serviceId: string, text: string) => call(endpoints.dns.importPreview, zone(serviceId), { zone: text });
export const applyImport = (serviceId: string, text: string) => call(endpoints.dns.import, zone(serviceId), { zone: text });
export const previewTemplate = (serviceId: string, template: string) => call(endpoints.dns.templatePreview, zone(serviceId), { template });
export const applyTemplate = (serviceId: string, template: string) => call(endpoints.dns.templateApply, zone(serviceId), { template });
export const revertChange = (serviceId: string, changeId: number) =>
  call(endpoints.dns.revert, { id: serviceId, changeId: String(changeId) });
