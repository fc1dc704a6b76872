import { DNS_PRIORITIES, DNS_TTLS, DNS_TYPES, type DnsRecord, type DnsType, hasPriority } from '@atalaya/contract';
import { Group, Select, TextInput } from '@mantine/core';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { createRecord, saveRecord } from '../api/dns.ts';
import { type DnsForm, emptyForm, formFields, formFromRecord, zonaErrorOnService } from '../form.ts';
import { ttlLabel } from '../labels.ts';
import { SrvNameFields, ValueFields } from './ValueFields.tsx';

interface Props {
  serviceId: string;
  zone: string;
  /** The record being edited (already loaded), or none to create. */
  record?: DnsRecord;
  onClose: () => void;
  /** The saved record, before the dialog closes. */
  onDone: (record: DnsRecord, mode: 'create' | 'edit') => void;
}

const FIELDS = ['type', 'zona', 'value', 'ttl', 'priority'];

/** Create or edit one record (docs/behaviour/service-area-dns.md#validation); field errors from the server under each field. */
export function RecordDialog({ serviceId, zone, record, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const mode = record ? 'edit' : 'create';
  const [form, setForm] = useState<DnsForm>(() => (record ? formFromRecord(record) : emptyForm()));
  const set = (patch: Partial<DnsForm>) => setForm((f) => ({ ...f, ...patch }));
  const { check } = usePermissions(serviceId);
  const mutation = useFormMutation({
    opened: true,
    permission: { check, call: record ? endpoints.dns.save : endpoints.dns.create },
    send: () => (record ? saveRecord(serviceId, record.id, formFields(form, 'edit')) : createRecord(serviceId, formFields(form, 'create'))),
    inputs: FIELDS,
    onClose,
    onDone: (result) => onDone(result.data.dns, mode),
  });
  const error = (field: string) => fieldError(mutation.error, field);
  const serviceWrong = zonaErrorOnService(form);

  return (
    <FormDialog
      title={t(record ? 'dns.edit' : 'dns.create')}
      size="lg"
      // The server's translated messages under each field, never the browser's own bubble in the
      // browser's language (decision 004).
      noValidate
      opened
      onClose={onClose}
      mutation={mutation}
      submitLabel={t(record ? 'dns.save_button' : 'dns.create_button')}
    >
      <Select
        label={t('dns.type')}
        data={[...DNS_TYPES]}
        value={form.type}
        onChange={(v) => set({ type: (v ?? 'A') as DnsType })}
        disabled={Boolean(record)}
        allowDeselect={false}
        error={error('type')}
      />
      {form.type === 'SRV' && !record && <SrvNameFields form={form} set={set} error={serviceWrong ? error('zona') : undefined} />}
      {record ? (
        <TextInput label={t('dns.name')} value={record.reference} readOnly />
      ) : (
        <TextInput
          label={t('dns.zona')}
          description={t('dns.zona_hint')}
          value={form.zona}
          onChange={(e) => set({ zona: e.currentTarget.value })}
          rightSection={<span style={{ whiteSpace: 'nowrap', paddingRight: 8 }}>.{zone}</span>}
          rightSectionWidth={Math.min(240, 16 + zone.length * 8)}
          error={serviceWrong ? undefined : error('zona')}
        />
      )}
      <ValueFields form={form} set={set} error={error('value')} />
      <Group grow align="flex-start">
        <Select
          label={t('dns.ttl')}
          data={DNS_TTLS.map((ttl) => ({ value: String(ttl), label: ttlLabel(t, ttl) }))}
          value={form.ttl}
          onChange={(v) => set({ ttl: v ?? '0' })}
          allowDeselect={false}
          error={error('ttl')}
        />
        {hasPriority(form.type) && (
          <Select
            label={t('dns.priority')}
            data={DNS_PRIORITIES.map(String)}
            value={form.priority}
            onChange={(v) => set({ priority: v ?? '20' })}
            allowDeselect={false}
            error={error('priority')}
          />
        )}
      </Group>
    </FormDialog>
  );
}
