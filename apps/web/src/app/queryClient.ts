import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiFailure } from '../lib/api.ts';
import { notifyError } from '../lib/notify.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `meta: { quiet: true }` on a mutation: the form shows the failure itself, no toast. */
    mutationMeta: { quiet?: boolean };
  }
}

/**
 * Every failed mutation toasts (docs/behaviour/shell-session-domains.md#errors) unless it says otherwise; so does every failed
 * load, except a "not found", which the page shows as its 404 view (app/shell/RouteError.tsx).
 */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
    queryCache: new QueryCache({
      onError: (error) => {
        if (!(error instanceof ApiFailure && error.status === 404)) notifyError(error);
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.quiet) notifyError(error);
      },
    }),
  });
