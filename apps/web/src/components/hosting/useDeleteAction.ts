import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { notifySuccess } from '../../lib/notify.ts';

/** A confirmed delete or toggle: the first info message as success (spec §8), then the list reloads. */
export function useListAction<V>(run: (v: V) => Promise<{ info: string[] }>, listKey: QueryKey, done?: () => void) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (result) => {
      notifySuccess(result.info);
      client.invalidateQueries({ queryKey: listKey });
      done?.();
    },
    onError: () => {
      client.invalidateQueries({ queryKey: listKey });
      done?.();
    },
  });
}
