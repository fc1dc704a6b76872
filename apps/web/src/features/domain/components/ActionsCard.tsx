import { type Area, canAct, canSee, type DomainAnswer } from '@atalaya/contract';
import { Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NotPermitted } from '../../../components/ui/NotPermitted.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { notifySuccess } from '../../../lib/notify.ts';
import { setItemPermissions } from '../../../lib/permissions.ts';
import { domainKey, type Toggle, toggle } from '../api/domain.ts';
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
  const mutation = useMutation({
    mutationFn: (which: Toggle) => toggle(id, which),
    onSuccess: (result) => {
      // The answer is the updated domain: it replaces the local one, permissions included.
      client.setQueryData(domainKey(id), result.data);
      setItemPermissions(client, id, result.data.domain.permissions);
      notifySuccess(result.info);
    },
    onError: () => client.invalidateQueries({ queryKey: domainKey(id) }),
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
