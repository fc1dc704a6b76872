import type { DomainAnswer, ExpiryState } from '@atalaya/contract';
import { Badge, Button, Card, Group, Select, Stack, Switch, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { formatDate } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { allowsCall, setItemPermissions } from '../../../lib/permissions.ts';
import { domainKey, renew, restore, setRenewalMode } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';

const STATE_COLOR: Record<ExpiryState, string> = {
  active: 'green',
  grace: 'orange',
  redemption: 'red',
  pendingDelete: 'gray',
  purged: 'dark',
};
/** The years a renewal may add: the registry refuses more than ten. */
const YEARS = Array.from({ length: 10 }, (_, i) => String(i + 1));
const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);
const plusYears = (seconds: number, years: number) => {
  const date = new Date(seconds * 1000);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return Math.floor(date.getTime() / 1000);
};

/** The expiry state as the registry has it, its date, renew, the renewal mode and restore from redemption. */
export function LifeCard({ data }: { data: DomainAnswer }) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const { id, name, permissions, expiry, expireTS, renewalMode } = data.domain;
  const { check } = useDomainPermissions(id);
  const [open, setOpen] = useState<'renew' | 'restore' | null>(null);
  const close = () => setOpen(null);
  // Each write answers the updated domain: it replaces the local one, so the new date shows at once.
  const replace = (result: { data: DomainAnswer }) => {
    client.setQueryData(domainKey(id), result.data);
    setItemPermissions(client, id, result.data.domain.permissions);
  };
  const mode = useFormMutation({
    permission: { check, call: endpoints.domain.renewal },
    send: (auto: boolean) => setRenewalMode(id, auto ? 'auto' : 'expire'),
    onDone: replace,
  });
  const restoring = useFormMutation({
    opened: open === 'restore',
    permission: { check, call: endpoints.domain.restore },
    send: () => restore(id),
    onDone: replace,
    onClose: close,
    closeOnError: true,
  });
  // Renew, restore and the renewal mode need the same permission: one check shows the three.
  const writer = allowsCall(permissions, endpoints.domain.renew);
  const renewable = expiry.state === 'active' || expiry.state === 'grace';

  return (
    <Card withBorder data-testid="domain-life">
      <Title order={2} size="h4" mb="sm">
        {t('domain.life')}
      </Title>
      <Stack gap="sm">
        <Group gap="sm">
          <Badge color={STATE_COLOR[expiry.state]} data-testid="expiry-state">
            {t(`shell.domain_state_${expiry.state}`)}
          </Badge>
          <Text data-testid="expiry-text">
            {t(`shell.domain_expiry_${expiry.state}`, { date: formatDate(expiry.until, i18n.language) })}
          </Text>
        </Group>
        {data.domain.transferLockUntil * 1000 > Date.now() && (
          <Text size="sm" data-testid="transfer-lock">
            {t('domain.transfer_lock_until', { date: formatDate(data.domain.transferLockUntil, i18n.language) })}
          </Text>
        )}
        {writer && (
          <Group gap="sm">
            {renewable && (
              <Button variant="light" onClick={() => setOpen('renew')}>
                {t('domain.renew')}
              </Button>
            )}
            {expiry.state === 'redemption' && (
              <Button color="red" variant="light" onClick={() => setOpen('restore')}>
                {t('domain.restore')}
              </Button>
            )}
            <Switch
              label={t('domain.renewal_auto_label')}
              checked={renewalMode === 'auto'}
              disabled={mode.isPending}
              onChange={(e) => mode.mutate(e.currentTarget.checked)}
            />
          </Group>
        )}
      </Stack>
      <RenewDialog id={id} name={name} expireTS={expireTS} opened={open === 'renew'} onClose={close} onDone={replace} />
      <ConfirmDialog
        opened={open === 'restore'}
        title={t('domain.restore_title', { name })}
        message={t('domain.restore_confirm')}
        confirmLabel={t('domain.restore')}
        loading={restoring.isPending}
        onConfirm={() => restoring.mutate()}
        onClose={close}
      />
    </Card>
  );
}

interface RenewProps {
  id: number;
  name: string;
  expireTS: number;
  opened: boolean;
  onClose: () => void;
  onDone: (result: { data: DomainAnswer }) => void;
}

/** Years to add, the new expiry date shown before sending; the expiry shown goes as curExpDate, so a repeat cannot renew twice. */
function RenewDialog({ id, name, expireTS, opened, onClose, onDone }: RenewProps) {
  const { t, i18n } = useTranslation();
  const { check } = useDomainPermissions(id);
  const [years, setYears] = useState('1');
  const submit = useFormMutation({
    opened,
    inputs: ['years', 'curExpDate'],
    permission: { check, call: endpoints.domain.renew },
    send: () => renew(id, Number(years), day(expireTS)),
    onDone,
    onClose,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!opened) return;
    setYears('1');
    submit.reset();
  }, [opened]);
  return (
    <FormDialog
      title={t('domain.renew_title', { name })}
      opened={opened}
      onClose={onClose}
      mutation={submit}
      submitLabel={t('domain.renew')}
    >
      <Select
        label={t('domain.renew_years_label')}
        name="years"
        data={YEARS}
        value={years}
        allowDeselect={false}
        onChange={(value) => setYears(value ?? '1')}
        error={fieldError(submit.error, 'years')}
      />
      <Text data-testid="renew-new-date">
        {t('domain.renew_new_date', { date: formatDate(plusYears(expireTS, Number(years)), i18n.language) })}
      </Text>
      {fieldError(submit.error, 'curExpDate') && (
        <Text c="red" size="sm" role="alert">
          {fieldError(submit.error, 'curExpDate')}
        </Text>
      )}
    </FormDialog>
  );
}
