import { type Area, canAct, canSee, type DomainAnswer } from '@atalaya/contract';
import { Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { NotPermitted } from '../../../components/ui/NotPermitted.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { setItemPermissions } from '../../../lib/permissions.ts';
import { domainKey, type Toggle, toggle } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';
import { Flag } from './Flag.tsx';

const ACTIONS: { toggle: Toggle; area: Area; flag: 'blocked' | 'transferBlock' | 'whoisPrivacy'; label: string }[] = [
  { toggle: 'block', area: 'domain_others', flag: 'blocked', label: 'domain.block' },
  { toggle: 'transferblock', area: 'domain_transferblock', flag: 'transferBlock', label: 'domain.transfer_block' },
  { toggle: 'whoisprivacy', area: 'domain_others', flag: 'whoisPrivacy', label: 'domain.whois_privacy' },
];

/** Modification block, transfer block, whois privacy: a switch with write, a check or cross with read. */
export function ActionsCard({ data }: { data: DomainAnswer }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { id, permissions } = data.domain;
  // The check reads the domain again before each toggle: a refused one leaves the switch on what the server holds.
  const { check } = useDomainPermissions(id);
  const mutation = useFormMutation({
    permission: { check, areas: (which: Toggle) => ACTIONS.find((a) => a.toggle === which)!.area },
    send: (which: Toggle) => toggle(id, which),
    onDone: (result) => {
      // The answer is the updated domain: it replaces the local one, permissions included.
      client.setQueryData(domainKey(id), result.data);
      setItemPermissions(client, id, result.data.domain.permissions);
    },
  });
  const visible = ACTIONS.filter((a) => canSee(permissions, a.area));
  if (visible.length === 0) return null;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {t('domain.actions')}
      </Title>
      <Stack gap="sm">
        {visible.map((action) => (
          <Group key={action.toggle} justify="space-between">
            <Text>{t(action.label)}</Text>
            {canAct(permissions, action.area) ? (
              <Switch
                aria-label={t(action.label)}
                checked={data.domain[action.flag]}
                disabled={mutation.isPending}
                onChange={() => mutation.mutate(action.toggle)}
              />
            ) : (
              <NotPermitted>
                <Flag on={data.domain[action.flag]} label={t(action.label)} />
              </NotPermitted>
            )}
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
