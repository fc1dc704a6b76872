import { LIMITS, LIST_KINDS } from '@atalaya/contract';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useRef } from 'react';
import { fetchData } from './api.ts';
import { endpoints } from './endpoints.ts';

/**
 * The items a picker offers (the activity filter, a token's items) for what is typed in it: the
 * first page of each list whose references hold the text, asked of the server, never every item of
 * the realm. Items seen before stay among the choices, so the ones already picked keep their label.
 * `enabled` false (a closed dialog) asks nothing.
 */
export function useItemChoices(search: string, enabled = true) {
  const [sent] = useDebouncedValue(search.trim(), LIMITS.listFilterDebounceMs);
  const seen = useRef(new Map<string, string>());
  const query = useQuery({
    queryKey: ['item-choices', sent],
    queryFn: async () => {
      const ask = { page: 1, filter: sent, sort: 'reference', order: 'asc' } as const;
      // A list the user has none of answers an empty page; a refusal leaves that kind out.
      return Promise.all(LIST_KINDS.map((kind) => fetchData(endpoints.lists[kind], {}, ask).catch(() => null)));
    },
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    enabled,
  });
  for (const page of query.data ?? []) for (const row of page?.rows ?? []) seen.current.set(String(row.id), row.reference);
  return [...seen.current].map(([value, label]) => ({ value, label })).sort((a, b) => a.label.localeCompare(b.label));
}
