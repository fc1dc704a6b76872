import { MutationCache, QueryClient } from '@tanstack/react-query';
import { notifyError } from '../lib/notify.ts';

declare module '@tanstack/react-query' {
  interface Register {
    /** `meta: { quiet: true }` on a mutation: the form shows the failure itself, no toast. */
    mutationMeta: { quiet?: boolean };
  }
}

/** Every failed mutation toasts (spec §8) unless it says otherwise; queries show their own state. */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } },
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.quiet) notifyError(error);
      },
    }),
  });
