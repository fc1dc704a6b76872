import { LIMITS } from '@atalaya/contract';
import { ActionIcon, Alert, Button, Checkbox, Group, Radio, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { dnsInitQuery, domainKey, saveDns } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';

/**
 * DNS servers (docs/behaviour/shell-session-domains.md#states): the provider's servers (offered only with a service) or 2 to 7 custom
 * ones; rows beyond the second can be removed.
 */
export function NameServersDialog({ id, opened, onClose }: { id: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const init = useQuery({ ...dnsInitQuery(id), enabled: opened });
  const [useDefault, setUseDefault] = useState(false);
  const [rows, setRows] = useState<string[]>(['', '']);
  // Offered once the server named what the change would break (a published DS the new servers cannot answer for).
  const [confirmed, setConfirmed] = useState(false);
  const { check } = useDomainPermissions(id);
  const submit = useFormMutation({
    opened,
    permission: { check, call: endpoints.domain.saveNameServers },
    send: () => saveDns(id, useDefault, rows, confirmed),
    reload: [domainKey(id), ['domain', id, 'dnsinit']],
    onClose,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens with fresh data
  useEffect(() => {
    if (!opened || !init.data) return;
    const { mode, hasService, domainDNSs } = init.data;
    const isDefault = hasService && mode === 'defaultDNS';
    setUseDefault(isDefault);
    setRows(!isDefault && domainDNSs.length >= LIMITS.dnsServersMin ? domainDNSs : ['', '']);
    setConfirmed(false);
    submit.reset();
  }, [opened, init.data]);
  const err = (input: string) => fieldError(submit.error, input);

  return (
    <FormDialog
      title={t('domain.dns_servers')}
      size="lg"
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={submit}
      submitDisabled={!init.data}
    >
      {init.data?.hasService && (
        <Radio.Group value={useDefault ? 'default' : 'custom'} onChange={(v) => setUseDefault(v === 'default')} error={err('default-ns')}>
          <Stack gap="xs">
            <Radio value="default" label={t('domain.dns_default')} />
            <Radio value="custom" label={t('domain.dns_custom')} />
          </Stack>
        </Radio.Group>
      )}
      {useDefault ? (
        <Text size="sm">{init.data?.defaultDNSs.join(', ')}</Text>
      ) : (
        <>
          {rows.map((value, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the rows are positions (dns[] order, errors dns.N) of controlled inputs.
            <Group key={index} align="flex-start" wrap="nowrap">
              <TextInput
                style={{ flex: 1 }}
                label={t('domain.dns_row', { n: index + 1 })}
                name="dns[]"
                value={value}
                onChange={(e) => {
                  const text = e.currentTarget.value;
                  setRows((list) => list.map((v, j) => (j === index ? text : v)));
                }}
                error={err(`dns.${index}`)}
              />
              {index >= LIMITS.dnsServersMin && (
                <ActionIcon
                  mt={28}
                  variant="subtle"
                  color="red"
                  aria-label={t('domain.remove_row', { n: index + 1 })}
                  onClick={() => setRows((list) => list.filter((_, j) => j !== index))}
                >
                  ×
                </ActionIcon>
              )}
            </Group>
          ))}
          {err('dns') && (
            <Text c="red" size="sm">
              {err('dns')}
            </Text>
          )}
          <Button
            variant="light"
            disabled={rows.length >= LIMITS.dnsServersMax}
            onClick={() => setRows([...rows, ''])}
            style={{ alignSelf: 'flex-start' }}
          >
            {t('domain.add_row')}
          </Button>
          <Text size="sm" c="dimmed">
            {t('domain.dns_resolve_note')}
          </Text>
        </>
      )}
      {(err('confirm') || confirmed) && (
        <Checkbox
          label={t('domain.ns_confirm_label')}
          checked={confirmed}
          onChange={(e) => setConfirmed(e.currentTarget.checked)}
          error={err('confirm')}
        />
      )}
      <Alert color="blue" variant="light">
        {t('domain.dns_propagation')}
      </Alert>
    </FormDialog>
  );
}
