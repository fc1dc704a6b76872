import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiFailure } from '../../lib/api.ts';
import type { Route } from '../../lib/endpoints.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import type { PermissionCheck } from '../../lib/permissions.ts';
import { hasFieldErrors } from './fieldErrors.ts';

interface Options<R, V> {
  /** The call; a switch or a row's action hands its value to `mutate(value)`. */
  send: (variables: V) => Promise<R>;
  /** A dialog's: each opening starts without the last failure. Absent for a switch or a button. */
  opened?: boolean;
  /** Closes the dialog: after a success, a 403, and any failure of a confirmation. */
  onClose?: () => void;
  /** The form's fields: a failure that names one of them shows under it, with no toast. Absent: any field it names. */
  inputs?: readonly string[];
  /** After the success toast, before the dialog closes: update the cache, clear the form. */
  onDone?: (result: R, variables: V) => unknown;
  /** The queries to reload after a success, and after a failure that closes or of a control without a dialog. */
  reload?: readonly QueryKey[];
  /**
   * The permission re-check before the call: the permission hook's `check` (lib/permissions.ts) and
   * the entry of the call `send` makes (or, for a control that makes several, of the one it was
   * handed), whose permission names the areas and the level. Without them "no permission" shows,
   * the dialog closes and nothing is sent.
   */
  permission?: { check: PermissionCheck; call: Route | ((variables: V) => Route) };
  /** The dialog stays open after a success (the installer goes on to show the installation's progress). */
  staysOpen?: boolean;
  /** A confirmation (a delete): any failure shows its toast, reloads and closes. */
  closeOnError?: boolean;
  /** The screen writes every failure itself (the sign-in steps show it under the form): no toast. */
  showsFailures?: boolean;
}

/** What a write answers: the envelope's info, shown as the success toast. A launcher's answer (a URL, a form) has none. */
const infoOf = (result: unknown) =>
  typeof result === 'object' && result !== null && 'info' in result && Array.isArray(result.info) ? (result.info as string[]) : null;

/**
 * The one write step of the web: every form, confirmation, switch and action button sends through
 * it, so each write re-checks its permission the same way, reports its failure the same way (field
 * errors under their fields, anything else as one toast, a 403 closes the dialog) and reloads what
 * it changed. The API client under it opens the login modal on an expired session and replays.
 */
export function useFormMutation<R, V = void>(options: Options<R, V>) {
  const { opened, send, inputs, onClose, onDone, reload = [], permission, staysOpen, closeOnError, showsFailures } = options;
  const client = useQueryClient();
  const reloadAll = () => Promise.all(reload.map((queryKey) => client.invalidateQueries({ queryKey })));
  const dialog = onClose !== undefined;
  const mutation = useMutation({
    // null: the permission re-check refused, nothing was sent.
    mutationFn: async (variables: V): Promise<R | null> => {
      if (permission) {
        const { check, call } = permission;
        if (!(await check(typeof call === 'function' ? call(variables) : call))) {
          onClose?.();
          return null;
        }
      }
      return send(variables);
    },
    meta: { quiet: true },
    onError: (error) => {
      const named = inputs ? hasFieldErrors(error, inputs) : error instanceof ApiFailure && error.inputs.length > 0;
      if (!closeOnError && !dialog) void reloadAll();
      if (named && !closeOnError) return;
      if (!showsFailures) notifyError(error);
      if (closeOnError) void reloadAll();
      if (closeOnError || (error instanceof ApiFailure && error.status === 403)) onClose?.();
    },
    onSuccess: async (result, variables) => {
      if (result === null) return;
      const info = infoOf(result);
      if (info) notifySuccess(info);
      await onDone?.(result, variables);
      void reloadAll();
      if (!staysOpen) onClose?.();
    },
  });
  const { reset } = mutation;
  useEffect(() => {
    if (opened) reset();
  }, [opened, reset]);
  return mutation;
}
