import { Badge, Button, Group, List, Stack, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchData } from '../../lib/api.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';

/** The delegation check of a zone: asked when the user asks, never kept (the world changes under it). */
const checkQuery = (serviceId: string) =>
  queryOptions({ queryKey: ['dns', serviceId, 'check'], queryFn: () => fetchData(endpoints.dns.check, { id: serviceId }), staleTime: 0 });

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
