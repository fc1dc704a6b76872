import { type AnswerOf, type Endpoint, LIMITS, type ParamsOf, type SortOrder } from '@atalaya/contract';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ApiFailure, type FormOf, fetchData } from '../../lib/api.ts';
import type { Route } from '../../lib/endpoints.ts';

export interface ServerPaging<S extends string = string> {
  filter: string;
  setFilter: (text: string) => void;
  page: number;
  setPage: (page: number) => void;
  sort: S | undefined;
  order: SortOrder;
  /** A click on a column's header: that column ascending, or the other way round when it already sorts. */
  sortBy(column: S): void;
  total: number | undefined;
}

export interface ServerPageOptions<E extends Endpoint, S extends string> {
  /** The column a list that sorts starts sorted by; a list the server keeps in one order has none. */
  sort?: S;
  /** Further filters of the list's own (the DNS type), sent with every page. */
  filters?: Record<string, string>;
  /** How often to read the page again given its answer (false: not), e.g. while a change waits for its backend. */
  poll?: (answer: AnswerOf<E> | undefined) => number | false;
}

/** The query key prefix of every page of a list: invalidating it reloads whichever page is on screen. */
export const serverPageKey = <E extends Endpoint>(e: Route<E>, params: ParamsOf<E>) => ['page', e.path, params] as const;

/**
 * One page of a list paged on the server (docs/decisions/025-paged-lists.md): the filter as typed,
 * sent once typing pauses; page, sort and order; the previous page stays on screen while the next
 * loads. A new filter or sort starts again at page 1; a page the server refuses (the list shrank
 * under it) falls back to page 1.
 */
export function useServerPage<E extends Endpoint, S extends string>(
  e: Route<E>,
  params: ParamsOf<E>,
  options: ServerPageOptions<E, S> = {},
) {
  const [filter, setFilter] = useState('');
  const [sent] = useDebouncedValue(filter.trim(), LIMITS.listFilterDebounceMs);
  const [sorting, setSorting] = useState<{ sort: S | undefined; order: SortOrder }>({ sort: options.sort, order: 'asc' });
  const filters = options.filters ?? {};
  // The page belongs to one filter and sort: another one starts at page 1 without a request for the old page.
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const key = JSON.stringify([sent, sorting, filters]);
  const page = paging.key === key ? paging.page : 1;
  const order = sorting.sort === undefined ? {} : { sort: sorting.sort, order: sorting.order };
  const query = useQuery({
    queryKey: [...serverPageKey(e, params), sent, page, sorting.sort, sorting.order, filters],
    queryFn: () => fetchData(e, params, { page, filter: sent, ...order, ...filters } as unknown as FormOf<E>),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    refetchInterval: options.poll ? (q) => options.poll!(q.state.data as AnswerOf<E> | undefined) : false,
  });
  const refused = query.error instanceof ApiFailure && query.error.fieldError('page') !== undefined;
  useEffect(() => {
    if (refused && page > 1) setPaging({ key, page: 1 });
  }, [refused, page, key]);
  const data = query.data as (AnswerOf<E> & { total: number }) | undefined;
  const paged: ServerPaging<S> = {
    filter,
    setFilter,
    page,
    setPage: (next) => setPaging({ key, page: next }),
    sort: sorting.sort,
    order: sorting.order,
    sortBy: (column) => setSorting((now) => ({ sort: column, order: now.sort === column && now.order === 'asc' ? 'desc' : 'asc' })),
    total: data?.total,
  };
  return { query, data, paged };
}
