import { queryOptions } from '@tanstack/react-query';
import { call, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** The zone's DNSSEC and the checks of its delegation (decision 034). */
export const dnssecKey = (serviceId: string) => ['dns', serviceId, 'dnssec'] as const;
const SETTLED = new Set(['off', 'on']);

/** Read again every two seconds while a step of the switch is queued. */
export const dnssecQuery = (serviceId: string) =>
  queryOptions({
    queryKey: dnssecKey(serviceId),
    queryFn: () => fetchData(endpoints.dns.dnssec, { id: serviceId }),
    refetchInterval: (q) => (q.state.data && (!SETTLED.has(q.state.data.state) || q.state.data.job) ? 2000 : false),
  });

/** Sent from the dialog that named the consequence, so confirmed (the API answers 409 without). */
export const setDnssec = (serviceId: string, enabled: boolean) =>
  call(endpoints.dns.dnssecSwitch, { id: serviceId }, { enabled: enabled ? 1 : 0, confirm: 1 });

export const rollDnssecKey = (serviceId: string) => call(endpoints.dns.dnssecRoll, { id: serviceId });
