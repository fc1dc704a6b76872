import { Badge, Button, Card, Code, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { DelegationCheck } from '../../../components/hosting/DelegationCheck.tsx';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { dnssecKey, dnssecQuery, rollDnssecKey, setDnssec } from '../api/dnssec.ts';

const OFF_STATES = new Set(['off', 'withdrawing', 'waiting', 'unsigning']);

/** DNSSEC in one switch, the keys and DS it publishes, and the findings about its delegation (decision 034). */
export function DnssecPanel({ serviceId, zone }: { serviceId: string; zone: string }) {
  const { t } = useTranslation();
  const { canCall, check } = usePermissions(serviceId);
  const state = useQuery(dnssecQuery(serviceId));
  const [asking, setAsking] = useState(false);
  const [rolling, setRolling] = useState(false);
  const data = state.data;
  // Signing, signed and rolling keys are on; withdrawing, waiting and unsigning are on their way off.
  const on = data !== undefined && !OFF_STATES.has(data.state);
  const mutation = useFormMutation({
    opened: asking,
    permission: { check, call: endpoints.dns.dnssecSwitch },
    send: () => setDnssec(serviceId, !on),
    reload: [dnssecKey(serviceId)],
    onClose: () => setAsking(false),
    closeOnError: true,
  });
  const roll = useFormMutation({
    opened: rolling,
    permission: { check, call: endpoints.dns.dnssecRoll },
    send: () => rollDnssecKey(serviceId),
    reload: [dnssecKey(serviceId)],
    onClose: () => setRolling(false),
    closeOnError: true,
  });
  if (!data) return null;
  const consequence = on
    ? t(data.registrar ? 'dns.dnssec_confirm_off' : 'dns.dnssec_confirm_off_elsewhere', { zone })
    : t(data.registrar ? 'dns.dnssec_confirm_on' : 'dns.dnssec_confirm_on_elsewhere', { zone });
  return (
    <Card withBorder data-testid="dnssec-panel">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5">
            DNSSEC
          </Title>
          <Switch
            aria-label={t('dns.dnssec_switch')}
            label={<span data-testid="dnssec-state">{t(`dns.dnssec_state_${data.state}`)}</span>}
            checked={on}
            disabled={!canCall(endpoints.dns.dnssecSwitch)}
            onChange={() => setAsking(true)}
          />
        </Group>
        {(data.state === 'waiting' || data.state === 'publishing') && data.dueAt !== null && (
          <Text size="sm" data-testid="dnssec-due">
            {t(data.state === 'waiting' ? 'dns.dnssec_waiting' : 'dns.dnssec_publishing', {
              when: new Date(data.dueAt * 1000).toLocaleString(),
            })}
          </Text>
        )}
        {data.keys.map((key) => (
          <Text key={key.id} size="sm" className="break-anywhere">
            {t('dns.dnssec_key', { tag: key.keyTag, algorithm: key.algorithm })} <Code>{key.dnskey}</Code>
          </Text>
        ))}
        {data.ds.map((ds) => (
          <Group key={`${ds.keyTag}-${ds.digestType}`} gap="xs" wrap="nowrap" data-testid="dnssec-ds">
            <Code className="break-anywhere">{`${zone}. IN DS ${ds.keyTag} ${ds.algorithm} ${ds.digestType} ${ds.digest}`}</Code>
            {ds.atRegistry && (
              <Badge size="sm" color="green" variant="light">
                {t('dns.dnssec_at_registry')}
              </Badge>
            )}
          </Group>
        ))}
        {data.state === 'on' && canCall(endpoints.dns.dnssecRoll) && (
          <Group>
            <Button variant="light" onClick={() => setRolling(true)}>
              {t('dns.dnssec_roll')}
            </Button>
          </Group>
        )}
        <DelegationCheck serviceId={serviceId} />
      </Stack>
      <ConfirmDialog
        opened={asking}
        title={t('dns.dnssec_switch')}
        message={consequence}
        danger={on}
        loading={mutation.isPending}
        onConfirm={() => mutation.mutate()}
        onClose={() => setAsking(false)}
      />
      <ConfirmDialog
        opened={rolling}
        title={t('dns.dnssec_roll')}
        message={t('dns.dnssec_roll_confirm', { zone })}
        loading={roll.isPending}
        onConfirm={() => roll.mutate()}
        onClose={() => setRolling(false)}
      />
    </Card>
  );
}
