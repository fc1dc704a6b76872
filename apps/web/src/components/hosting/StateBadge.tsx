import type { BackendState } from '@atalaya/contract';
import { Badge, Button } from '@mantine/core';
import type { QueryKey } from '@tanstack/react-query';
import { call } from '../../lib/api.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { useFormMutation } from '../ui/useFormMutation.ts';

/** A failed row the user may write: its item, its failed job, the list to reload and the row's name. */
export interface Retry {
  itemId: number;
  job: number | null;
  listKey: QueryKey;
  name: string;
}

/**
 * Where a change stands on its server: nothing when applied, else pending / deleting / failed. A
 * failed row the user may write (`retry` given) also offers to apply the change again. A change
 * for a hosting node whose agent is not connected names the node it waits for.
 */
export function StateBadge({ state, retry, waitingFor }: { state: BackendState; retry?: Retry | false; waitingFor?: string }) {
  const { t } = useTranslation();
  if (state === 'ready') return null;
  const color = state === 'failed' ? 'red' : 'yellow';
  return (
    <>
      <Badge
        color={color}
        variant="light"
        size="sm"
        ml="xs"
        // The light variant writes yellow on pale yellow (contrast 1.8): the page's own text colour
        // on the tinted background reads in both themes (WCAG 2.1 AA, e2e/shell/a11y-routes.spec.ts).
        style={{ '--badge-color': 'var(--mantine-color-text)' }}
        data-testid={`state-${state}`}
      >
        {waitingFor ? t('hosting.state_waiting', { node: waitingFor }) : t(`hosting.state_${state}`)}
      </Badge>
      {state === 'failed' && retry && retry.job !== null && <RetryButton retry={retry} job={retry.job} />}
    </>
  );
}

function RetryButton({ retry, job }: { retry: Retry; job: number }) {
  const { t } = useTranslation();
  // The row offers the retry only to a writer of the job's area; the re-check is the entry's own
  // (write on any of the areas that queue a job), which the server narrows to the job's kind.
  const { check } = usePermissions(retry.itemId);
  const run = useFormMutation({
    permission: { check, call: endpoints.service.jobRetry },
    send: () => call(endpoints.service.jobRetry, { id: retry.itemId, jobId: job }),
    reload: [retry.listKey],
  });
  return (
    <Button
      size="compact-xs"
      variant="subtle"
      color="red"
      ml="xs"
      loading={run.isPending}
      onClick={() => run.mutate()}
      aria-label={t('hosting.retry_of', { name: retry.name })}
      data-testid="state-retry"
    >
      {t('hosting.retry')}
    </Button>
  );
}

/** While a row waits for its backend, the list polls until it settles. */
export const pollWhilePending = <T extends { state: BackendState }>(rows: readonly T[] | undefined) =>
  rows?.some((r) => r.state === 'pending' || r.state === 'deleting') ? 1000 : false;
