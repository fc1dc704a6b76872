import type { DnsRecord } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { call, type Fields, get } from '../../../lib/api.ts';

/** The DNS zone calls of spec §7; delete, restore and delete-all are GET (docs/decisions/007). */
export const dnsKey = (serviceId: string) => ['dns', serviceId] as const;

export const dnsListQuery = (serviceId: string) =>
  queryOptions({
    queryKey: [...dnsKey(serviceId), 'list'],
    queryFn: () => get<{ dnss: DnsRecord[] }>(`service/${serviceId}/dns/list/`).then((d) => d.dnss),
  });

export const fetchRecord = (serviceId: string, dnsId: number) =>
  get<{ dns: DnsRecord }>(`service/${serviceId}/dns/${dnsId}/`).then((d) => d.dns);

export const createRecord = (serviceId: string, fields: Fields) =>
  call<{ dns: DnsRecord }>('POST', `service/${serviceId}/dns/create/`, fields);

export const saveRecord = (serviceId: string, dnsId: number, fields: Fields) =>
  call<{ dns: DnsRecord }>('POST', `service/${serviceId}/dns/${dnsId}/save/`, fields);

export const deleteRecord = (serviceId: string, dnsId: number) => call<null>('GET', `service/${serviceId}/dns/${dnsId}/delete/`);
export const restoreDefaults = (serviceId: string) => call<null>('GET', `service/${serviceId}/dns/restore/`);
export const deleteAllRecords = (serviceId: string) => call<null>('GET', `service/${serviceId}/dns/delete/`);
