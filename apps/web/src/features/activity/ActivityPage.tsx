import { LIMITS } from '@atalaya/contract';
import { Group, Pagination, Stack, Table, Text, Title } from '@mantine/core';
import { paginationLabel } from '../../components/ui/DataList.tsx';
import { pageCount } from '../../components/ui/listing.ts';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useSearchParams } from '../../lib/router/hooks.ts';
import { FILTERS, type Filter, queryOf, useActivity } from './activityQuery.ts';
import { EventRow } from './EventRow.tsx';
import { Filters } from './Filters.tsx';

/**
 * The Activity page (docs/behaviour/activity.md): the changes and sign-ins the user may read, newest
 * first, paged and filtered on the server. The filters live in the address, so an item's page links
 * to its own history (`?item=`) and a filtered view can be bookmarked.
 */
export default function ActivityPage() {
  const { t } = useTranslation();
  usePageTitle(t('activity.title'));
  const [search, setSearch] = useSearchParams();
  const query = queryOf(search);
  const { data, error } = useActivity(query);
  const values = Object.fromEntries(FILTERS.map((f) => [f, search.get(f) ?? ''])) as Record<Filter, string>;

  const change = (filter: Filter, value: string) =>
    setSearch((old) => {
      const next = new URLSearchParams(old);
      if (value) next.set(filter, value);
      else next.delete(filter);
      next.delete('page');
      return next;
    });
  const goTo = (page: number) =>
    setSearch((old) => {
      const next = new URLSearchParams(old);
      next.set('page', String(page));
      return next;
    });

  const pages = pageCount(data?.total ?? 0, LIMITS.pageSize);
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('activity.title')}
      </Title>
      <Filters values={values} onChange={change} onClear={() => setSearch(new URLSearchParams())} error={error} />
      {data && data.events.length === 0 ? (
        <Text c="dimmed" ta="center" py="lg" data-testid="no-results">
          {t('activity.none')}
        </Text>
      ) : (
        <Table.ScrollContainer
          minWidth={0}
          scrollAreaProps={{ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': t('activity.list') } }}
        >
          <Table aria-label={t('activity.list')} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('activity.when')}</Table.Th>
                <Table.Th>{t('activity.actor')}</Table.Th>
                <Table.Th>{t('activity.item')}</Table.Th>
                <Table.Th>{t('activity.what')}</Table.Th>
                <Table.Th>{t('activity.changes')}</Table.Th>
                <Table.Th>{t('activity.where')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.events.map((event) => (
                <EventRow key={event.id} event={event} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Group justify="center">
          <Pagination total={pages} value={data?.page ?? 1} onChange={goTo} size="sm" siblings={1} getControlProps={paginationLabel(t)} />
        </Group>
      )}
    </Stack>
  );
}
