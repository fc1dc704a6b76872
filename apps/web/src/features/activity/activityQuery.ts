import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormOf, fetchData } from '../../lib/api.ts';
import { endpoints } from '../../lib/endpoints.ts';

/** The filters the Activity page keeps in its address (so an item page can link to its own history). */
export const FILTERS = ['item', 'area', 'actor', 'from', 'to'] as const;
export type Filter = (typeof FILTERS)[number];
export type ActivityFilters = Partial<Record<Filter, string>> & { page: number };

/** The address's search part → the call's query: empty filters left out, the page from 1. */
export function queryOf(search: URLSearchParams): ActivityFilters {
  const query: ActivityFilters = { page: Number(search.get('page')) || 1 };
  for (const name of FILTERS) {
    const value = search.get(name)?.trim();
    if (value) query[name] = value;
  }
  return query;
}

/** GET /activity/: one page of events; the page shown stays while the next one loads. */
export const useActivity = (query: ActivityFilters) =>
  useQuery({
    queryKey: ['activity', query],
    queryFn: () => fetchData(endpoints.activity.list, {}, query as FormOf<typeof endpoints.activity.list>),
    placeholderData: keepPreviousData,
  });
