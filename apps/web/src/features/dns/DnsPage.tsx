import { DNS_TYPES, type DnsRecord, dnsSearchText } from '@atalaya/contract';
import { Button, Group, Menu, Select, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DataList } from '../../components/ui/DataList.tsx';
import { usePageTitle } from '../../components/ui/usePageTitle.ts';
import { notifyError } from '../../lib/notify.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { dnsListQuery, fetchRecord } from './api/dns.ts';
import { RecordDialog } from './components/RecordDialog.tsx';
import { RecordRow } from './components/RecordRow.tsx';
import { type ZoneAction, ZoneConfirm } from './components/ZoneConfirm.tsx';
import type { TypeFilter } from './filter.ts';
import { ttlLabel } from './labels.ts';

type Open = { kind: 'create' } | { kind: 'edit'; record: DnsRecord } | { kind: 'delete'; record: DnsRecord } | { kind: ZoneAction } | null;

/** The DNS zone of a hosting service (docs/behaviour/service-area-dns.md#dns-zone); the shell titles it with the reference. */
export default function DnsPage() {
  const { t } = useTranslation();
  const serviceId = useParams().id ?? '';
  const client = useQueryClient();
  const permissions = usePermissions(serviceId);
  const canWrite = permissions.canAct('service_dnszone');
  const zone = permissions.data?.reference ?? '';
  usePageTitle(zone || t('dns.title'));
  const query = dnsListQuery(serviceId);
  const list = useQuery(query);
  const [type, setType] = useState<TypeFilter>('ALL');
  const [open, setOpen] = useState<Open>(null);
  const rows = useMemo(() => (list.data && type !== 'ALL' ? list.data.filter((r) => r.type === type) : list.data), [list.data, type]);
  const filterText = useCallback((r: DnsRecord) => dnsSearchText(r, (ttl) => ttlLabel(t, ttl)), [t]);

  /** docs/behaviour/service-area-dns.md#permissions: forms re-check the action permission; without it, 'no permission' and nothing opens. */
  const allowed = () => permissions.check('service_dnszone');
  const update = (change: (records: DnsRecord[]) => DnsRecord[]) => {
    client.setQueryData(query.queryKey, (old: DnsRecord[] | undefined) => change(old ?? []));
    // Siblings may change too (one TTL per RRset, the last NS): the list is re-read behind the scenes.
    client.invalidateQueries({ queryKey: query.queryKey });
  };
  const reload = () => {
    setType('ALL');
    return client.invalidateQueries({ queryKey: query.queryKey });
  };

  const edit = async (record: DnsRecord) => {
    if (!(await allowed())) return;
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
      <DataList
        rows={rows}
        rowKey={(r) => r.id}
        filterText={filterText}
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
            {canWrite && (
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button variant="light">{t('dns.zone_menu')}</Button>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Item onClick={async () => (await allowed()) && setOpen({ kind: 'create' })}>{t('dns.create')}</Menu.Item>
                  <Menu.Item onClick={async () => (await allowed()) && setOpen({ kind: 'restore' })}>{t('dns.restore')}</Menu.Item>
                  <Menu.Item color="red" onClick={async () => (await allowed()) && setOpen({ kind: 'deleteAll' })}>
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
          onDone={(record, mode) =>
            update((old) => (mode === 'create' ? [...old, record] : old.map((r) => (r.id === record.id ? record : r))))
          }
        />
      )}
      {open?.kind === 'delete' && (
        <ZoneConfirm
          serviceId={serviceId}
          action="delete"
          record={open.record}
          onClose={() => setOpen(null)}
          onDone={() => update((old) => old.filter((r) => r.id !== open.record.id))}
        />
      )}
      {(open?.kind === 'restore' || open?.kind === 'deleteAll') && (
        <ZoneConfirm serviceId={serviceId} action={open.kind} onClose={() => setOpen(null)} onDone={reload} />
      )}
    </Stack>
  );
}
