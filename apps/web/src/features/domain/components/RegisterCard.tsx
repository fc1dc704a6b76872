import type { DomainAnswer } from '@atalaya/contract';
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { allowsCall, setItemPermissions } from '../../../lib/permissions.ts';
import { domainKey, register } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';

/**
 * A domain its registry has not got (decision 051): it reads as not registered, and a domain
 * writer may register it, a purchase confirmed first. The registration goes through the queue:
 * the domain answer shows it pending (RegistryChanges) until the registry has it.
 */
export function RegisterCard({ data }: { data: DomainAnswer }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { id, name, permissions } = data.domain;
  const { check } = useDomainPermissions(id);
  const [confirming, setConfirming] = useState(false);
  const registering = useFormMutation({
    opened: confirming,
    permission: { check, call: endpoints.domain.register },
    send: () => register(id),
    onDone: (result) => {
      client.setQueryData(domainKey(id), result.data);
      setItemPermissions(client, id, result.data.domain.permissions);
    },
    onClose: () => setConfirming(false),
    closeOnError: true,
  });
  const pending = data.changes.some((c) => c.action === 'register' && c.state === 'pending');
  const writer = allowsCall(permissions, endpoints.domain.register);
  return (
    <Card withBorder data-testid="domain-unregistered">
      <Title order={2} size="h4" mb="sm">
        {name}
      </Title>
      <Stack gap="sm">
        <Group gap="sm">
          <Badge color="gray" data-testid="registration-state">
            {t('domain.unregistered')}
          </Badge>
          <Text>{pending ? t('domain.registering') : t('domain.unregistered_note')}</Text>
        </Group>
        {!pending &&
          (writer ? (
            <Group>
              <Button onClick={() => setConfirming(true)}>{t('domain.register')}</Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t('domain.unregistered_reader')}
            </Text>
          ))}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('domain.register_title', { name })}
        message={t('domain.register_confirm')}
        confirmLabel={t('domain.register')}
        loading={registering.isPending}
        onConfirm={() => registering.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
