import { LIMITS } from '@atalaya/contract';
import { Group, Pagination, Skeleton, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { type ReactNode, useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import { filterRows, normalise, pageCount, pageOf } from './listing.ts';
import { useDelayedFlag } from './useDelayedFlag.ts';
import type { ServerPaging } from './useServerPage.ts';

export interface DataListProps<T> {
  /** undefined while loading. */
  rows: readonly T[] | undefined;
  rowKey: (row: T) => string | number;
  /** The text the filter box searches; without it there is no filter box. */
  filterText?: (row: T) => string;
  /** With columns the rows are table rows (`<Table.Tr>`); without, any block (cards). */
  columns?: ReactNode[];
  renderRow: (row: T) => ReactNode;
  /** Extra controls next to the filter box (a type filter, a create button). */
  toolbar?: ReactNode;
  /** Accessible name of the list and of its filter box. */
  label: string;
  emptyText?: string;
  pageSize?: number;
  /**
   * Paged on the server (useServerPage): `rows` is the current page, the filter box and the
   * paginator drive the server's query, and nothing is filtered or paged here.
   */
  server?: ServerPaging;
  /** Columns (by index) whose header sorts a server-paged list, and the sort each one asks for. */
  sortable?: Record<number, string>;
}

/**
 * The generic list (docs/behaviour/service-area-dns.md#lists): text filter, pages of 10 with a paginator only when
 * there is more than one page, a skeleton only after 400 ms of loading, a no-results placeholder.
 * Only the current page is rendered, so 10,000 rows cost one page of DOM. With `server` the same
 * list shows one page the server chose (filtered, sorted and paged there) and drives its query.
 */
export function DataList<T>({
  rows,
  rowKey,
  filterText,
  columns,
  renderRow,
  toolbar,
  label,
  emptyText,
  pageSize = LIMITS.pageSize,
  server,
  sortable,
}: DataListProps<T>) {
  const { t } = useTranslation();
  const [localQuery, setLocalQuery] = useState('');
  const [localPage, setLocalPage] = useState(1);
  const query = server ? server.filter : localQuery;
  const deferredQuery = useDeferredValue(query);
  const filterHere = filterText && !server;
  const haystacks = useMemo(
    () => (rows && filterHere ? rows.map((row) => normalise(filterText(row))) : []),
    [rows, filterText, filterHere],
  );
  const kept = useMemo(
    () => (rows ? (filterHere ? filterRows(rows, haystacks, deferredQuery) : [...rows]) : []),
    [rows, haystacks, deferredQuery, filterHere],
  );
  const pages = server ? pageCount(server.total ?? 0, pageSize) : pageCount(kept.length, pageSize);
  const current = server ? server.page : Math.min(localPage, pages);
  const visible = server ? kept : pageOf(kept, current, pageSize);
  const setPage = server ? server.setPage : setLocalPage;
  const setQuery = (text: string) => {
    if (server) server.setFilter(text);
    else {
      setLocalQuery(text);
      setLocalPage(1);
    }
  };
  const showSkeleton = useDelayedFlag(rows === undefined, LIMITS.skeletonDelayMs);

  let body: ReactNode;
  if (rows === undefined) {
    body = showSkeleton ? <ListSkeleton /> : null;
  } else if (kept.length === 0) {
    body = (
      <Text c="dimmed" ta="center" py="lg" data-testid="no-results">
        {emptyText ?? t('shell.no_results')}
      </Text>
    );
  } else if (columns) {
    body = (
      // A table wider than a phone scrolls sideways: the keyboard must reach that region too (WCAG 2.1.1).
      <Table.ScrollContainer minWidth={0} scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } }}>
        <Table highlightOnHover aria-label={label}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column, i) => {
                const sortKey = sortable?.[i];
                if (!server || sortKey === undefined) {
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are static per list
                  return <Table.Th key={i}>{column}</Table.Th>;
                }
                const active = server.sort === sortKey;
                return (
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are static per list
                  <Table.Th key={i} aria-sort={active ? (server.order === 'asc' ? 'ascending' : 'descending') : 'none'}>
                    <UnstyledButton onClick={() => server.sortBy(sortKey)} fw={700} fz="sm">
                      {column} <span aria-hidden="true">{active ? (server.order === 'asc' ? '▲' : '▼') : '↕'}</span>
                    </UnstyledButton>
                  </Table.Th>
                );
              })}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{visible.map((row) => withKey(rowKey(row), renderRow(row)))}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  } else {
    body = (
      <Stack gap="sm" role="list" aria-label={label}>
        {visible.map((row) => (
          <div role="listitem" key={rowKey(row)}>
            {renderRow(row)}
          </div>
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      {(filterText || toolbar) && (
        <Group justify="space-between" wrap="wrap" gap="sm">
          {filterText && (
            <TextInput
              type="search"
              aria-label={t('shell.filter_label', { list: label })}
              placeholder={t('shell.filter')}
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
              style={{ flex: '1 1 12rem', maxWidth: '24rem' }}
            />
          )}
          {toolbar}
        </Group>
      )}
      {body}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={current} onChange={setPage} size="sm" siblings={1} getControlProps={paginationLabel(t)} />
        </Group>
      )}
    </Stack>
  );
}

const withKey = (key: string | number, node: ReactNode) => <FragmentWithKey key={key}>{node}</FragmentWithKey>;
const FragmentWithKey = ({ children }: { children: ReactNode }) => children;

export const paginationLabel = (t: (key: string) => string) => (control: 'first' | 'previous' | 'last' | 'next') => ({
  'aria-label': t(`shell.page_${control}`),
});

function ListSkeleton() {
  return (
    <Stack gap="xs" data-testid="list-skeleton">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} height={36} />
      ))}
    </Stack>
  );
}
