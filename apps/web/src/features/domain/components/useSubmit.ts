import type { Area } from '@atalaya/contract';
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiResult } from '../../../lib/api.ts';
import { ApiFailure } from '../../../lib/api.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
import { useDomainGuard } from '../useDomainGuard.ts';

/**
 * The send step of every domain dialog: the permission check first (closing with 'no permission'
 * when the action is gone), then the call; on success a toast, the lists reload and the dialog
 * closes. A refusal that names fields stays in the form; any other shows a toast. A delete
 * (`closeOnError`) reloads and closes whatever happens (spec §4).
 */
export function useSubmit<T>(options: {
  id: number;
  area: Area;
  send: () => Promise<ApiResult<T>>;
  reload: QueryKey[];
  onClose: () => void;
  closeOnError?: boolean;
}) {
  const client = useQueryClient();
  const guard = useDomainGuard(options.id);
  const reload = () => Promise.all(options.reload.map((queryKey) => client.invalidateQueries({ queryKey })));
  return useMutation({
    meta: { quiet: true },
    mutationFn: async () => {
      if (!(await guard(options.area))) {
        options.onClose();
        return null;
      }
      return options.send();
    },
    onSuccess: (result) => {
      if (!result) return;
      notifySuccess(result.info);
      void reload();
      options.onClose();
    },
    onError: (error) => {
      const named = error instanceof ApiFailure && error.inputs.length > 0;
      if (!named || options.closeOnError) notifyError(error);
      if (options.closeOnError) {
        void reload();
        options.onClose();
      }
    },
  });
}
