import { ApiFailure } from '../../lib/api.ts';
import { notifyError } from '../../lib/notify.ts';
import { hasFieldErrors } from '../ui/fieldErrors.ts';

/**
 * A form's failure: field errors stay under their fields; anything else is a toast, and a
 * refusal for lack of permission (403) closes the form (spec §8).
 */
export const onFormError = (inputs: readonly string[], close: () => void) => (error: unknown) => {
  if (hasFieldErrors(error, inputs)) return;
  notifyError(error);
  if (error instanceof ApiFailure && error.status === 403) close();
};
