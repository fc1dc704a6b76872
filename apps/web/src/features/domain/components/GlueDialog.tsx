import { type GlueRecord, isIPv6 } from '@atalaya/contract';
import { Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { IpInput } from '../../../components/ui/IpInput.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { createGlue, deleteGlue, domainKey, glueKey, saveGlue } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';

interface Props {
  id: number;
  domain: string;
  /** null: create one; a record: change its addresses. */
  record: GlueRecord | null;
  opened: boolean;
  onClose: () => void;
}

/** A glue record: a name whose suffix is the domain, IPv4 required, IPv6 optional. */
export function GlueDialog({ id, domain, record, opened, onClose }: Props) {
  const { t } = useTranslation();
  const [label, setLabel] = useState('');
  const [ip, setIp] = useState('');
  const [ipv6, setIpv6] = useState('');
  const [ipv6Left, setIpv6Left] = useState(false);
  const name = label.trim() ? `${label.trim()}.${domain}` : domain;
  const { check } = useDomainPermissions(id);
  const submit = useFormMutation({
    opened,
    permission: { check, call: record ? endpoints.domain.glueSave : endpoints.domain.glueCreate },
    send: () => (record ? saveGlue(id, record.id, { ip, ipv6 }) : createGlue(id, { name, ip, ipv6 })),
    reload: [glueKey(id), domainKey(id)],
    onClose,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!opened) return;
    setLabel(record ? record.name.slice(0, -(domain.length + 1)) : '');
    setIp(record?.ip ?? '');
    setIpv6(record?.ipv6 ?? '');
    setIpv6Left(false);
    submit.reset();
  }, [opened, record]);
  const err = (input: string) => fieldError(submit.error, input);
  const ipv6Invalid = ipv6Left && ipv6 !== '' && !isIPv6(ipv6.trim());

  return (
    <FormDialog
      title={t(record ? 'domain.glue_edit' : 'domain.glue_create')}
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={submit}
    >
      <TextInput
        label={t('domain.glue_name')}
        name="name"
        value={label}
        disabled={Boolean(record)}
        onChange={(e) => setLabel(e.currentTarget.value)}
        rightSection={
          <Text size="sm" c="dimmed">
            .{domain}
          </Text>
        }
        rightSectionWidth={Math.min(220, 20 + domain.length * 8)}
        error={err('name')}
      />
      <IpInput label={t('domain.ipv4')} name="ip" required value={ip} onChange={setIp} error={err('ip')} />
      <TextInput
        label={t('domain.ipv6')}
        name="ipv6"
        value={ipv6}
        onChange={(e) => setIpv6(e.currentTarget.value)}
        onBlur={(e) => setIpv6Left(!(e.relatedTarget instanceof HTMLButtonElement))}
        error={err('ipv6') ?? (ipv6Invalid ? t('validation.ipv6') : undefined)}
      />
    </FormDialog>
  );
}

export function GlueDeleteDialog({ id, record, onClose }: { id: number; record: GlueRecord | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { check } = useDomainPermissions(id);
  const submit = useFormMutation({
    opened: record !== null,
    permission: { check, call: endpoints.domain.glueDelete },
    send: () => deleteGlue(id, record!.id),
    reload: [glueKey(id), domainKey(id)],
    onClose,
    closeOnError: true,
  });
  return (
    <ConfirmDialog
      opened={record !== null}
      title={t('domain.glue_delete')}
      message={t('domain.glue_delete_confirm', { name: record?.name ?? '' })}
      confirmLabel={t('domain.delete')}
      danger
      loading={submit.isPending}
      onConfirm={() => submit.mutate()}
      onClose={onClose}
    />
  );
}
