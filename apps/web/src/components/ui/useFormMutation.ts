import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiFailure } from '../../lib/api.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { hasFieldErrors } from './fieldErrors.ts';

interface Options<R> {
  opened: boolean;
  send: () => Promise<R>;
  /** The form's fields: a failure that names one of them shows under it, with no toast. Absent: any field it names. */
  inputs?: readonly string[];
  onClose: () => void;
  /** After the success toast, before the dialog closes: update the cache. */
  onDone?: (result: R) => void;
  /** The queries to reload after a success (and after a failure that closes). */
  reload?: readonly QueryKey[];
  /** Asked first (the permission check): false closes the form and nothing is sent. */
  allowed?: () => Promise<boolean>;
  /** A confirmation (a delete): any failure shows its toast, reloads and closes. */
  closeOnError?: boolean;
}

/**
 * The one send step of every form and confirmation dialog. Quiet, because the form reports
 * its own failures: field errors under their fields, anything else as one toast, and a refusal for
 * lack of permission (403) closes the form. Each opening starts without the last failure.
 */
export function useFormMutation<R extends { info: string[] }>(options: Options<R>) {
  const { opened, send, inputs, onClose, onDone, reload = [], allowed, closeOnError } = options;
  const client = useQueryClient();
  const reloadAll = () => Promise.all(reload.map((queryKey) => client.invalidateQueries({ queryKey })));
  const mutation = useMutation({
    mutationFn: async () => {
      if (allowed && !(await allowed())) {
        onClose();
        return null;
      }
      return send();
    },
    meta: { quiet: true },
    onError: (error) => {
      const named = inputs ? hasFieldErrors(error, inputs) : error instanceof ApiFailure && error.inputs.length > 0;
      if (named && !closeOnError) return;
      notifyError(error);
      if (closeOnError) void reloadAll();
      if (closeOnError || (error instanceof ApiFailure && error.status === 403)) onClose();
    },
    onSuccess: (result) => {
      if (!result) return;
      notifySuccess(result.info);
      onDone?.(result);
      void reloadAll();
      onClose();
    },
  });
  const { reset } = mutation;
  useEffect(() => {
    if (opened) reset();
  }, [opened, reset]);
  return mutation;
}
