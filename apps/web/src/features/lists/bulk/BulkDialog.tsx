import { BULK_ACTIONS, BULK_LOCKS, type BulkAction, type BulkAnswer } from '@atalaya/contract';
import { Select, Textarea, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { startBulk } from './api.ts';

const YEARS = Array.from({ length: 10 }, (_, i) => String(i + 1));
const INPUTS = ['ids', 'years', 'mode', 'dns', 'lock', 'on', 'sourceId'] as const;
/** The fields a refusal of one name server names (dns, its row), shown under the one box. */
const DNS_ROWS = Array.from({ length: 50 }, (_, i) => ['dns', i].join('.'));

interface Props {
  ids: number[];
  opened: boolean;
  onClose: () => void;
  /** The batch the server started: its progress shows on the list. */
  onStarted: (bulk: BulkAnswer) => void;
}

/**
 * One action over the selected domains: renew, the renewal mode, name servers, a lock, or the
 * contacts of another domain. Each domain is checked on the server with its own permission; what
 * it may not do shows as skipped in the batch's results, not here.
 */
export function BulkDialog({ ids, opened, onClose, onStarted }: Props) {
  const { t } = useTranslation();
  const [action, setAction] = useState<BulkAction>('renew');
  const [years, setYears] = useState('1');
  const [mode, setMode] = useState<'auto' | 'expire'>('auto');
  const [dns, setDns] = useState('');
  const [lock, setLock] = useState<(typeof BULK_LOCKS)[number]>('transferblock');
  const [on, setOn] = useState<'0' | '1'>('1');
  const [sourceId, setSourceId] = useState('');
  const submit = useFormMutation({
    opened,
    inputs: INPUTS,
    send: () =>
      startBulk({
        action,
        ids,
        ...(action === 'renew' ? { years } : {}),
        ...(action === 'renewal' ? { mode } : {}),
        ...(action === 'nameServers' ? { dns: dns.split(/\s+/).filter(Boolean) } : {}),
        ...(action === 'lock' ? { lock, on } : {}),
        ...(action === 'contacts' ? { sourceId } : {}),
      }),
    onDone: (result) => onStarted(result.data),
    onClose,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (opened) submit.reset();
  }, [opened]);
  const error = (input: string) => fieldError(submit.error, input);
  return (
    <FormDialog
      title={t('shell.bulk_title', { count: ids.length })}
      opened={opened}
      onClose={onClose}
      mutation={submit}
      submitLabel={t('shell.bulk_apply')}
      noValidate
    >
      <Select
        label={t('shell.bulk_action')}
        name="action"
        data={BULK_ACTIONS.map((value) => ({ value, label: t(`shell.bulk_action_${value}`) }))}
        value={action}
        allowDeselect={false}
        onChange={(value) => setAction((value as BulkAction) ?? 'renew')}
        error={error('ids')}
      />
      {action === 'renew' && (
        <Select
          label={t('shell.bulk_years')}
          name="years"
          data={YEARS}
          value={years}
          allowDeselect={false}
          onChange={(v) => setYears(v ?? '1')}
          error={error('years')}
        />
      )}
      {action === 'renewal' && (
        <Select
          label={t('shell.bulk_mode')}
          name="mode"
          data={[
            { value: 'auto', label: t('shell.bulk_mode_auto') },
            { value: 'expire', label: t('shell.bulk_mode_expire') },
          ]}
          value={mode}
          allowDeselect={false}
          onChange={(v) => setMode(v === 'expire' ? 'expire' : 'auto')}
          error={error('mode')}
        />
      )}
      {action === 'nameServers' && (
        <Textarea
          label={t('shell.bulk_dns')}
          name="dns"
          description={t('shell.bulk_dns_hint')}
          value={dns}
          onChange={(e) => setDns(e.currentTarget.value)}
          error={error('dns') ?? DNS_ROWS.map(error).find(Boolean)}
          autosize
          minRows={2}
        />
      )}
      {action === 'lock' && (
        <>
          <Select
            label={t('shell.bulk_lock')}
            name="lock"
            data={BULK_LOCKS.map((value) => ({ value, label: t(`shell.bulk_lock_${value}`) }))}
            value={lock}
            allowDeselect={false}
            onChange={(v) => setLock(v === 'block' ? 'block' : 'transferblock')}
            error={error('lock')}
          />
          <Select
            label={t('shell.bulk_on')}
            name="on"
            data={[
              { value: '1', label: t('shell.bulk_on_1') },
              { value: '0', label: t('shell.bulk_on_0') },
            ]}
            value={on}
            allowDeselect={false}
            onChange={(v) => setOn(v === '0' ? '0' : '1')}
            error={error('on')}
          />
        </>
      )}
      {action === 'contacts' && (
        <TextInput
          label={t('shell.bulk_source')}
          name="sourceId"
          value={sourceId}
          onChange={(e) => setSourceId(e.currentTarget.value)}
          error={error('sourceId')}
        />
      )}
    </FormDialog>
  );
}
