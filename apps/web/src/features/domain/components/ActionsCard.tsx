import { canAct, canSee, type DomainAnswer, type DomainToggle, TOGGLE_AREA } from '@atalaya/contract';
import { Card, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { NotPermitted } from '../../../components/ui/NotPermitted.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { narrowTo, setItemPermissions } from '../../../lib/permissions.ts';
import { domainKey, toggle } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';
import { Flag } from './Flag.tsx';

// Each toggle's area is the contract's (`TOGGLE_AREA`), as the server narrows the call to it.
const ACTIONS: { toggle: DomainToggle; flag: 'blocked' | 'transferBlock' | 'whoisPrivacy'; label: string }[] = [
  { toggle: 'block', flag: 'blocked', label: 'domain.block' },
  { toggle: 'transferblock', flag: 'transferBlock', label: 'domain.transfer_block' },
  { toggle: 'whoisprivacy', flag: 'whoisPrivacy', label: 'domain.whois_privacy' },
];

/** Modification block, transfer block, whois privacy: a switch with write, a check or cross with read. */
export function ActionsCard({ data }: { data: DomainAnswer }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { id, permissions } = data.domain;
  // The check reads the domain again before each toggle: a refused one leaves the switch on what the server holds.
  const { check } = useDomainPermissions(id);
  const mutation = useFormMutation({
    permission: { check, call: (which: DomainToggle) => narrowTo(endpoints.domain.toggle, TOGGLE_AREA[which]) },
    send: (which: DomainToggle) => toggle(id, which),
    onDone: (result) => {
      // The answer is the updated domain: it replaces the local one, permissions included.
      client.setQueryData(domainKey(id), result.data);
      setItemPermissions(client, id, result.data.domain.permissions);
    },
  });
  const visible = ACTIONS.filter((a) => canSee(permissions, TOGGLE_AREA[a.toggle]));
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
            {canAct(permissions, TOGGLE_AREA[action.toggle]) ? (
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
