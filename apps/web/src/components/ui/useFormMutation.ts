import { useMutation } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiFailure } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { hasFieldErrors } from './fieldErrors.ts';

interface Options<R> {
  opened: boolean;
  send: () => Promise<R>;
  /** The form's fields: a failure that names one of them shows under it, with no toast. */
  inputs: readonly string[];
  onClose: () => void;
  /** After the success toast, before the dialog closes: reload a list, update the cache. */
  onDone?: (result: R) => void;
}

/**
 * The send step of a form dialog (spec §8). Quiet, because the form reports its own failures: field
 * errors under their fields, anything else as one toast, and a refusal for lack of permission (403)
 * closes the form. Each opening starts without the last failure.
 */
export function useFormMutation<R extends { info: string[] }>({ opened, send, inputs, onClose, onDone }: Options<R>) {
  const mutation = useMutation({
    mutationFn: send,
    meta: { quiet: true },
    onError: (error) => {
      if (hasFieldErrors(error, inputs)) return;
      notifyError(error);
      if (error instanceof ApiFailure && error.status === 403) onClose();
    },
    onSuccess: (result) => {
      notifySuccess(result.info);
      onDone?.(result);
      onClose();
    },
  });
  const { reset } = mutation;
  useEffect(() => {
    if (opened) reset();
  }, [opened, reset]);
  return mutation;
}
