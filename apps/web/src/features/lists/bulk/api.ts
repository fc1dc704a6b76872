import type { BulkAnswer, BulkInput } from '@atalaya/contract';
import { queryOptions } from '@tanstack/react-query';
import { call, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** The bulk calls of the domain list: start one, follow it, retry its failures. */
const domain = endpoints.domain;

export const bulkKey = (id: number) => ['domain-bulk', id] as const;

/** A batch's progress, read again every second while any domain waits for the registry. */
export const bulkQuery = (id: number) =>
  queryOptions({
    queryKey: bulkKey(id),
    queryFn: () => fetchData(domain.bulkGet, { bulkId: id }),
    refetchInterval: (q) => ((q.state.data?.counts.queued ?? 1) > 0 ? 1000 : false),
  });

export type BulkFields = Omit<BulkInput, 'ids'> & { ids: number[] };

export const startBulk = (fields: BulkFields) => call(domain.bulk, {}, { ...fields, ids: fields.ids.map(String) });
export const retryBulk = (id: number) => call(domain.bulkRetry, { bulkId: id });
export type { BulkAnswer };
