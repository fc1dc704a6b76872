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
  sort: S;
  order: SortOrder;
  /** A click on a column's header: that column ascending, or the other way round when it already sorts. */
  sortBy(column: S): void;
  total: number | undefined;
}

/**
 * One page of a list paged on the server (docs/decisions/025-paged-lists.md): the filter as typed,
 * sent once typing pauses; page, sort and order; the previous page stays on screen while the next
 * loads. A new filter or sort starts again at page 1; a page the server refuses (the list shrank
 * under it) falls back to page 1.
 */
export function useServerPage<E extends Endpoint, S extends string>(e: Route<E>, params: ParamsOf<E>, firstSort: S) {
  const [filter, setFilter] = useState('');
  const [sent] = useDebouncedValue(filter.trim(), LIMITS.listFilterDebounceMs);
  const [sorting, setSorting] = useState<{ sort: S; order: SortOrder }>({ sort: firstSort, order: 'asc' });
  // The page belongs to one filter and sort: another one starts at page 1 without a request for the old page.
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const key = `${sent}\n${sorting.sort}\n${sorting.order}`;
  const page = paging.key === key ? paging.page : 1;
  const query = useQuery({
    queryKey: ['page', e.path, params, sent, page, sorting.sort, sorting.order],
    queryFn: () => fetchData(e, params, { page, filter: sent, sort: sorting.sort, order: sorting.order } as FormOf<E>),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
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
