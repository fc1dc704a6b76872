import type { MailAccount } from '@atalaya/contract';
import { Checkbox, Group, Switch, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { accountsKey, type DeliveryFields, saveDelivery } from '../api/mail.ts';

const MB = 1024 * 1024;

/** What an account's fields start as: its saved quota, autoresponder and forwarding. */
const fieldsOf = (account: MailAccount | null): DeliveryFields => ({
  quotaMb: String(Math.max(1, Math.round((account?.quota ?? MB) / MB))),
  autoreply: account?.autoresponder ? 'on' : '',
  autoreplySubject: account?.autoresponder?.subject ?? '',
  autoreplyText: account?.autoresponder?.text ?? '',
  autoreplyStart: account?.autoresponder?.start ?? '',
  autoreplyEnd: account?.autoresponder?.end ?? '',
  autoreplyDays: String(account?.autoresponder?.days ?? 7),
  forwardTo: account?.forward?.targets.join(', ') ?? '',
  forwardKeep: account?.forward && !account.forward.keepCopy ? '' : 'on',
});

/** A mail account's delivery: quota, autoresponder (subject, text, dates, days between replies) and forwarding. */
export function DeliveryDialog({
  id,
  account,
  opened,
  onClose,
}: {
  id: number;
  account: MailAccount | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { check } = usePermissions(id);
  const [fields, setFields] = useState<DeliveryFields>(fieldsOf(account));
  const set = (name: keyof DeliveryFields) => (value: string) => setFields((f) => ({ ...f, [name]: value }));
  const mutation = useFormMutation({
    opened,
    permission: { check, call: endpoints.service.mailDelivery },
    send: () => saveDelivery(id, account!.id, fields),
    inputs: Object.keys(fields),
    onClose,
    onDone: () => client.invalidateQueries({ queryKey: accountsKey(id) }),
  });
  useEffect(() => {
    if (opened) setFields(fieldsOf(account));
  }, [opened, account]);
  const error = (name: keyof DeliveryFields) => fieldError(mutation.error, name);
  const on = fields.autoreply === 'on';
  return (
    <FormDialog
      title={t('hosting.delivery_of', { name: account?.user ?? '' })}
      opened={opened}
      onClose={onClose}
      mutation={mutation}
      submitLabel={t('shell.save')}
    >
      <TextInput
        label={t('hosting.quota_mb')}
        name="quotaMb"
        type="number"
        min={1}
        required
        value={fields.quotaMb}
        onChange={(e) => set('quotaMb')(e.currentTarget.value)}
        error={error('quotaMb')}
      />
      <Switch label={t('hosting.autoreply')} checked={on} onChange={(e) => set('autoreply')(e.currentTarget.checked ? 'on' : '')} />
      {on && (
        <>
          <TextInput
            label={t('hosting.autoreply_subject')}
            name="autoreplySubject"
            required
            value={fields.autoreplySubject}
            onChange={(e) => set('autoreplySubject')(e.currentTarget.value)}
            error={error('autoreplySubject')}
          />
          <Textarea
            label={t('hosting.autoreply_text')}
            name="autoreplyText"
            required
            autosize
            minRows={3}
            value={fields.autoreplyText}
            onChange={(e) => set('autoreplyText')(e.currentTarget.value)}
            error={error('autoreplyText')}
          />
          <Group grow align="flex-start">
            <TextInput
              label={t('hosting.autoreply_start')}
              name="autoreplyStart"
              type="date"
              value={fields.autoreplyStart}
              onChange={(e) => set('autoreplyStart')(e.currentTarget.value)}
              error={error('autoreplyStart')}
            />
            <TextInput
              label={t('hosting.autoreply_end')}
              name="autoreplyEnd"
              type="date"
              value={fields.autoreplyEnd}
              onChange={(e) => set('autoreplyEnd')(e.currentTarget.value)}
              error={error('autoreplyEnd')}
            />
          </Group>
          <TextInput
            label={t('hosting.autoreply_days')}
            description={t('hosting.autoreply_days_hint')}
            name="autoreplyDays"
            type="number"
            min={1}
            value={fields.autoreplyDays}
            onChange={(e) => set('autoreplyDays')(e.currentTarget.value)}
            error={error('autoreplyDays')}
          />
        </>
      )}
      <TextInput
        label={t('hosting.forward_to')}
        description={t('hosting.forward_hint')}
        name="forwardTo"
        value={fields.forwardTo}
        onChange={(e) => set('forwardTo')(e.currentTarget.value)}
        error={error('forwardTo')}
      />
      <Checkbox
        label={t('hosting.forward_keep')}
        checked={fields.forwardKeep === 'on'}
        onChange={(e) => set('forwardKeep')(e.currentTarget.checked ? 'on' : '')}
      />
    </FormDialog>
  );
}
