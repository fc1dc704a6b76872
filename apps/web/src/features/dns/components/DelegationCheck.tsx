import { Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { checkQuery } from '../api/dnssec.ts';

const LEVEL_COLOR = { ok: 'green', warning: 'yellow', error: 'red' } as const;

/**
 * The delegation check of a zone the panel hosts (decision 034): asked on request, since it queries
 * the registry and every name server; each finding in plain words, with its fix when not well.
 */
export function DelegationCheck({ serviceId }: { serviceId: string | number }) {
  const { t } = useTranslation();
  const [checking, setChecking] = useState(false);
  const findings = useQuery({ ...checkQuery(String(serviceId)), enabled: checking });
  return (
    <Stack gap="sm">
      <Group>
        <Button variant="light" loading={findings.isFetching} onClick={() => (checking ? findings.refetch() : setChecking(true))}>
          {t('dns.check')}
        </Button>
      </Group>
      {findings.data && (
        <List spacing={4} data-testid="dns-check" listStyleType="none">
          {findings.data.findings.map((f) => (
            <List.Item key={`${f.code}-${f.text}`}>
              <Badge size="sm" color={LEVEL_COLOR[f.level]} variant="light" mr="xs">
                {t(`dns.check_${f.level}`)}
              </Badge>
              <Text span size="sm">
                {f.text}
              </Text>
              {f.fix && (
                <Text size="sm" c="dimmed">
                  {f.fix}
                </Text>
              )}
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
