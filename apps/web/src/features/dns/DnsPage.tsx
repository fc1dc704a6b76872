import { DNS_TYPES, type DnsRecord } from '@atalaya/contract';
import { Button, Group, Menu, Select, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { pollWhilePending, StateBadge } from '../../components/hosting/StateBadge.tsx';
import { DataList } from '../../components/ui/DataList.tsx';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { serverPageKey, useServerPage } from '../../components/ui/useServerPage.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { notifyError } from '../../lib/notify.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import { fetchRecord } from './api/dns.ts';
import { historyKey } from './api/zoneTools.ts';
import { DnssecPanel } from './components/DnssecPanel.tsx';
import { RecordDialog } from './components/RecordDialog.tsx';
import { RecordRow } from './components/RecordRow.tsx';
import { type ZoneAction, ZoneConfirm } from './components/ZoneConfirm.tsx';
import type { TypeFilter } from './filter.ts';
import { HistoryCard } from './history/HistoryCard.tsx';
import { ImportDialog } from './import/ImportDialog.tsx';
import { TemplateDialog } from './import/TemplateDialog.tsx';

// With a server-paged list the filter box is shown and drives the server; nothing is searched here.
const searchable = () => '';

type Open =
  | { kind: 'import' }
  | { kind: 'template' }
  | { kind: 'create' }
  | { kind: 'edit'; record: DnsRecord }
  | { kind: 'delete'; record: DnsRecord }
  | { kind: ZoneAction }
  | null;

/**
 * The DNS zone of a hosting service (docs/behaviour/service-area-dns.md#dns-zone); the shell titles
 * it with the reference. One page of records at a time, filtered by type and text on the server
 * (docs/decisions/025-paged-lists.md), so a zone of 50,000 records costs one page.
 */
export default function DnsPage() {
  const { t } = useTranslation();
  const serviceId = useParams().id ?? '';
  const client = useQueryClient();
  const permissions = usePermissions(serviceId);
  const canWrite = permissions.canCall(endpoints.dns.create);
  const zone = permissions.data?.reference ?? '';
  usePageTitle(zone || t('dns.title'));
  const [type, setType] = useState<TypeFilter>('ALL');
  const [open, setOpen] = useState<Open>(null);
  const zoneParams = { id: serviceId };
  const {
    query: list,
    data,
    paged,
  } = useServerPage(endpoints.dns.list, zoneParams, {
    filters: { type },
    // The zone's apply state rides on each page: read again until a pending apply settles.
    poll: (answer) => pollWhilePending(answer?.state ? [{ state: answer.state }] : undefined),
  });

  // A change moves rows between pages and may change siblings (one TTL per RRset, the last NS):
  // the page on screen is read again, with the filters as they are.
  // Every change of the zone is a line of its history too.
  const update = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: serverPageKey(endpoints.dns.list, zoneParams) }),
      client.invalidateQueries({ queryKey: historyKey(serviceId) }),
    ]);
  const reload = () => {
    setType('ALL');
    return update();
  };

  const edit = async (record: DnsRecord) => {
    try {
      setOpen({ kind: 'edit', record: await fetchRecord(serviceId, record.id) });
    } catch (error) {
      notifyError(error);
    }
  };

  // A zone that cannot load (no hosting, not visible) is the route's error: the 404 view.
  if (list.isError && !list.data) throw list.error;
  return (
    <Stack gap="md">
      {zone && <DnssecPanel serviceId={serviceId} zone={zone} />}
      <DataList
        rows={data?.dnss}
        rowKey={(r) => r.id}
        filterText={searchable}
        server={paged}
        label={t('dns.list_label')}
        emptyText={t('dns.empty')}
        columns={[t('dns.name'), t('dns.priority'), t('dns.ttl'), t('dns.value'), '']}
        renderRow={(r) => (
          <RecordRow record={r} canWrite={canWrite} onEdit={edit} onDelete={(record) => setOpen({ kind: 'delete', record })} />
        )}
        toolbar={
          <Group gap="sm">
            <Select
              aria-label={t('dns.type_filter')}
              data={[{ value: 'ALL', label: t('dns.all_types') }, ...DNS_TYPES.map((ty) => ({ value: ty, label: ty }))]}
              value={type}
              onChange={(v) => setType((v ?? 'ALL') as TypeFilter)}
              allowDeselect={false}
              w={120}
            />
            {data?.state && (
              <StateBadge
                state={data.state}
                retry={
                  canWrite && {
                    itemId: Number(serviceId),
                    job: data.job ?? null,
                    listKey: serverPageKey(endpoints.dns.list, zoneParams),
                    name: t('dns.zone_named', { zone }),
                  }
                }
              />
            )}
            {canWrite && (
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button variant="light">{t('dns.zone_menu')}</Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={() => setOpen({ kind: 'create' })}>{t('dns.create')}</Menu.Item>
                  <Menu.Item onClick={() => setOpen({ kind: 'import' })}>{t('dns.import_title')}</Menu.Item>
                  <Menu.Item onClick={() => setOpen({ kind: 'template' })}>{t('dns.templates_title')}</Menu.Item>
                  <Menu.Item onClick={() => setOpen({ kind: 'restore' })}>{t('dns.restore')}</Menu.Item>
                  <Menu.Item color="red" onClick={() => setOpen({ kind: 'deleteAll' })}>
                    {t('dns.delete_all')}
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        }
      />
      {(open?.kind === 'create' || open?.kind === 'edit') && (
        <RecordDialog
          serviceId={serviceId}
          zone={zone}
          record={open.kind === 'edit' ? open.record : undefined}
          onClose={() => setOpen(null)}
          onDone={update}
        />
      )}
      {open?.kind === 'delete' && (
        <ZoneConfirm serviceId={serviceId} action="delete" record={open.record} onClose={() => setOpen(null)} onDone={update} />
      )}
      {open?.kind === 'import' && <ImportDialog serviceId={serviceId} onClose={() => setOpen(null)} onDone={reload} />}
      {open?.kind === 'template' && <TemplateDialog serviceId={serviceId} onClose={() => setOpen(null)} onDone={reload} />}
      <HistoryCard serviceId={serviceId} canWrite={canWrite} onReverted={reload} />
      {(open?.kind === 'restore' || open?.kind === 'deleteAll') && (
        <ZoneConfirm serviceId={serviceId} action={open.kind} onClose={() => setOpen(null)} onDone={reload} />
      )}
    </Stack>
  );
}
