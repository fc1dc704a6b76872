import type { DnssecRecord } from '@atalaya/contract';
import { Select, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { createDnssec, deleteDnssec, dnssecInitQuery, dnssecKey } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';

const EMPTY = { keytag: '', algorithm: '', digesttype: '', digest: '', flags: '', protocols: '' };
const options = (table: Record<number, string> | undefined) =>
  Object.entries(table ?? {}).map(([value, name]) => ({ value, label: `${value} · ${name}` }));

/** A DS record (digest type) or DNSKEY data (pubkey type), as the domain's registry takes it. */
export function DnssecDialog({ id, opened, onClose }: { id: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const init = useQuery({ ...dnssecInitQuery(id), enabled: opened });
  const [form, setForm] = useState(EMPTY);
  const type = init.data?.type ?? 'digest';
  const fields = type === 'digest' ? ['keytag', 'algorithm', 'digesttype', 'digest'] : ['flags', 'protocols', 'algorithm', 'digest'];
  const { check } = useDomainPermissions(id);
  const submit = useFormMutation({
    opened,
    permission: { check, call: endpoints.domain.dnssecCreate },
    send: () => createDnssec(id, { type, ...Object.fromEntries(fields.map((f) => [f, form[f as keyof typeof EMPTY]])) }),
    reload: [dnssecKey(id)],
    onClose,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!opened) return;
    setForm(EMPTY);
    submit.reset();
  }, [opened]);
  const set = (key: keyof typeof EMPTY) => (value: string | null) => setForm((f) => ({ ...f, [key]: value ?? '' }));
  const err = (input: string) => fieldError(submit.error, input);
  const select = (key: keyof typeof EMPTY, label: string, table: Record<number, string> | undefined) => (
    <Select
      label={label}
      name={key}
      required
      data={options(table)}
      value={form[key] || null}
      onChange={set(key)}
      error={err(key)}
      allowDeselect={false}
    />
  );

  return (
    <FormDialog
      title={t('domain.dnssec_create')}
      size="lg"
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={submit}
      submitDisabled={!init.data}
    >
      {type === 'digest' ? (
        <>
          <TextInput
            label={t('domain.keytag')}
            name="keytag"
            required
            inputMode="numeric"
            value={form.keytag}
            onChange={(e) => set('keytag')(e.currentTarget.value.replace(/\D/g, ''))}
            error={err('keytag')}
          />
          {select('algorithm', t('domain.algorithm'), init.data?.algorithms)}
          {select('digesttype', t('domain.digesttype'), init.data?.digestTypes)}
        </>
      ) : (
        <>
          {select('flags', t('domain.flags'), init.data?.flags)}
          {select('protocols', t('domain.protocol'), init.data?.protocols)}
          {select('algorithm', t('domain.algorithm'), init.data?.algorithms)}
        </>
      )}
      <Textarea
        label={t(type === 'digest' ? 'domain.digest' : 'domain.public_key')}
        name="digest"
        required
        rows={5}
        value={form.digest}
        onChange={(e) => set('digest')(e.currentTarget.value)}
        error={err('digest') ?? err('type')}
      />
    </FormDialog>
  );
}

export function DnssecDeleteDialog({ id, record, onClose }: { id: number; record: DnssecRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { check } = useDomainPermissions(id);
  const submit = useFormMutation({
    opened: record !== null,
    permission: { check, call: endpoints.domain.dnssecDelete },
    send: () => deleteDnssec(id, record!.id),
    reload: [dnssecKey(id)],
    onClose,
    closeOnError: true,
  });
  return (
    <ConfirmDialog
      opened={record !== null}
      title={t('domain.dnssec_delete')}
      message={t('domain.dnssec_delete_confirm', { keytag: record?.keytag ?? '' })}
      confirmLabel={t('domain.delete')}
      danger
      loading={submit.isPending}
      onConfirm={() => submit.mutate()}
      onClose={onClose}
    />
  );
}
