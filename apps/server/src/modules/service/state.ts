import type { BackendState } from '@atalaya/contract';
import { FieldErrors } from '../../http/errors.ts';
import { isUniqueViolation } from '../../store/errors.ts';

/** A row's backend state from the status of the job that last changed it. */
export function backendState(deleting: number, jobStatus: string | null | undefined): BackendState {
  if (deleting) return 'deleting';
  if (jobStatus === 'pending' || jobStatus === 'running') return 'pending';
  if (jobStatus === 'failed') return 'failed';
  return 'ready';
}

/** For `.catch` on an insert: a name another request has just taken (the unique index says so) is that field's 'name taken'. */
export const nameTakenAs = (input: string) => (error: unknown) => {
  throw isUniqueViolation(error) ? FieldErrors.one(input, 'service.name_taken') : error;
};
