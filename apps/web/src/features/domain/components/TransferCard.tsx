import type { DomainAnswer, TransferView } from '@atalaya/contract';
import { Button, Card, Group, Loader, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { formatDate } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { allowsCall } from '../../../lib/permissions.ts';
import { answerTransfer, domainKey, requestTransfer, TRANSFER_ANSWER, transferKey, transferQuery } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';

type Answer = 'approve' | 'reject' | 'cancel';

/**
 * The domain's transfer: another registrar's request for it (who, and when the registry approves
 * it unless answered, with approve and reject for a writer of the auth code), or the transfer in
 * of a domain held elsewhere (the auth code the current registrar gave, then its progress).
 */
export function TransferCard({ data }: { data: DomainAnswer }) {
  const { t, i18n } = useTranslation();
  const { id, name, permissions, heldBy } = data.domain;
  const { check } = useDomainPermissions(id);
  const query = useQuery(transferQuery(id));
  const [open, setOpen] = useState<Answer | 'request' | null>(null);
  const close = () => setOpen(null);
  const reload = [domainKey(id), transferKey(id)];
  const answering = useFormMutation({
    opened: open !== null && open !== 'request',
    permission: { check, call: (answer: Answer) => TRANSFER_ANSWER[answer] },
    send: (answer: Answer) => answerTransfer(id, answer),
    reload,
    onClose: close,
    closeOnError: true,
  });
  const transfer = query.data;
  if (!transfer) return <Loader size="sm" aria-label={t('main.loading')} />;
  const date = (seconds: number) => formatDate(seconds, i18n.language);
  const pending = transfer.status === 'pending';
  const out = transfer.direction === 'out';
  const asking = open !== null && open !== 'request' ? open : null;

  return (
    <Card withBorder data-testid="domain-transfer">
      <Title order={2} size="h4" mb="sm">
        {t('domain.transfer')}
      </Title>
      <Stack gap="sm">
        <Text data-testid="transfer-text">{describe(transfer, heldBy, t, date)}</Text>
        {transfer.change?.state === 'failed' && (
          <Text c="red" size="sm" role="alert">
            {transfer.change.message}
          </Text>
        )}
        {transfer.change?.state === 'pending' && <Text size="sm">{t('domain.transfer_on_its_way')}</Text>}
        <Group gap="sm">
          {pending && out && allowsCall(permissions, TRANSFER_ANSWER.approve) && (
            <>
              <Button onClick={() => setOpen('approve')}>{t('domain.transfer_approve')}</Button>
              <Button color="red" variant="light" onClick={() => setOpen('reject')}>
                {t('domain.transfer_reject')}
              </Button>
            </>
          )}
          {pending && !out && allowsCall(permissions, TRANSFER_ANSWER.cancel) && (
            <Button variant="light" onClick={() => setOpen('cancel')}>
              {t('domain.transfer_cancel')}
            </Button>
          )}
          {!pending &&
            heldBy !== null &&
            transfer.change?.state !== 'pending' &&
            allowsCall(permissions, endpoints.domain.transferRequest) && (
              <Button onClick={() => setOpen('request')}>{t('domain.transfer_in')}</Button>
            )}
        </Group>
      </Stack>
      <RequestDialog id={id} name={name} opened={open === 'request'} onClose={close} />
      <ConfirmDialog
        opened={asking !== null}
        title={t(`domain.transfer_${asking ?? 'approve'}_title`, { name })}
        message={t(`domain.transfer_${asking ?? 'approve'}_confirm`, { registrar: transfer.requestedBy })}
        confirmLabel={t(`domain.transfer_${asking ?? 'approve'}`)}
        danger={asking === 'approve'}
        loading={answering.isPending}
        onConfirm={() => asking && answering.mutate(asking)}
        onClose={close}
      />
    </Card>
  );
}

function describe(
  transfer: TransferView,
  heldBy: string | null,
  t: (key: string, params?: Record<string, string>) => string,
  date: (seconds: number) => string,
) {
  const params = {
    registrar: transfer.requestedBy,
    holder: heldBy ?? '',
    asked: date(transfer.requestedAt),
    until: date(transfer.approveAt),
  };
  if (transfer.status === 'pending')
    return t(transfer.direction === 'out' ? 'domain.transfer_out_pending' : 'domain.transfer_in_pending', params);
  if (transfer.direction === 'out') return t(heldBy !== null ? 'domain.transfer_out_done' : 'domain.transfer_out_kept', params);
  if (heldBy === '') return t('domain.transfer_unknown_here');
  if (heldBy !== null) return t('domain.transfer_held_elsewhere', params);
  return t('domain.transfer_in_done', params);
}

/** The auth code the current registrar gave the registrant; a wrong one is refused under its field, nothing queued. */
function RequestDialog({ id, name, opened, onClose }: { id: number; name: string; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { check } = useDomainPermissions(id);
  const [authCode, setAuthCode] = useState('');
  const submit = useFormMutation({
    opened,
    inputs: ['authCode'],
    permission: { check, call: endpoints.domain.transferRequest },
    send: () => requestTransfer(id, authCode),
    reload: [domainKey(id), transferKey(id)],
    onClose,
  });
  // A fresh form each time it opens.
  useEffect(() => {
    if (opened) setAuthCode('');
  }, [opened]);
  return (
    <FormDialog
      title={t('domain.transfer_in_title', { name })}
      opened={opened}
      onClose={onClose}
      mutation={submit}
      submitLabel={t('domain.transfer_in')}
    >
      <PasswordInput
        label={t('domain.transfer_authcode_label')}
        name="authCode"
        autoComplete="off"
        value={authCode}
        onChange={(e) => setAuthCode(e.currentTarget.value)}
        error={fieldError(submit.error, 'authCode')}
      />
    </FormDialog>
  );
}
