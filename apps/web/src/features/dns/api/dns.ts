import { call, type FormOf, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** The DNS zone calls of docs/behaviour/service-area-dns.md#calls; delete, restore and delete-all are GET (docs/decisions/007). */
const zone = (id: string) => ({ id });

export const fetchRecord = (serviceId: string, dnsId: number) => fetchData(endpoints.dns.get, { id: serviceId, dnsId }).then((d) => d.dns);

export const createRecord = (serviceId: string, fields: FormOf<typeof endpoints.dns.create>) =>
  call(endpoints.dns.create, zone(serviceId), fields);

export const saveRecord = (serviceId: string, dnsId: number, fields: FormOf<typeof endpoints.dns.save>) =>
  call(endpoints.dns.save, { id: serviceId, dnsId }, fields);

export const deleteRecord = (serviceId: string, dnsId: number) => call(endpoints.dns.delete, { id: serviceId, dnsId });
export const restoreDefaults = (serviceId: string) => call(endpoints.dns.restore, zone(serviceId));
/** Sent from the dialog that named the consequence, so confirmed (the API answers 409 without). */
export const deleteAllRecords = (serviceId: string) => call(endpoints.dns.deleteAll, zone(serviceId), { confirm: 1 });
