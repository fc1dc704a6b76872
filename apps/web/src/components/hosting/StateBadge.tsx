import type { BackendState } from '@atalaya/contract';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Where a change stands on its server: nothing when applied, else pending / deleting / failed. */
export function StateBadge({ state }: { state: BackendState }) {
  const { t } = useTranslation();
  if (state === 'ready') return null;
  const color = state === 'failed' ? 'red' : 'yellow';
  return (
    <Badge color={color} variant="light" size="sm" ml="xs" data-testid={`state-${state}`}>
      {t(`hosting.state_${state}`)}
    </Badge>
  );
}

/** While a row waits for its backend, the list polls until it settles. */
export const pollWhilePending = <T extends { state: BackendState }>(rows: readonly T[] | undefined) =>
  rows?.some((r) => r.state === 'pending' || r.state === 'deleting') ? 1000 : false;
