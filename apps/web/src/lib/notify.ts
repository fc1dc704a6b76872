import { LIMITS } from '@atalaya/contract';
import { notifications } from '@mantine/notifications';
import i18next from 'i18next';
import { ApiFailure } from './api.ts';

/** docs/behaviour/shell-session-domains.md#errors: the text of a failure; '404' and '500' become the 'not found' and 'internal error' texts. */
export function errorText(error: unknown): string {
  if (error instanceof ApiFailure) {
    if (error.message === '404') return i18next.t('main.not_found');
    if (error.message === '500') return error.errors[0] ?? i18next.t('shell.internal_error');
    if (error.message === 'error') return i18next.t('shell.error');
    return error.message;
  }
  return i18next.t('shell.error');
}

// Every toast: its × has no text, so screen readers get its name.
const toast = (color: 'green' | 'red', message: string) =>
  notifications.show({ color, message, autoClose: LIMITS.toastMs, closeButtonProps: { 'aria-label': i18next.t('shell.close') } });

/** Success toast: the server's first info message, else 'Operation done successfully'. */
export function notifySuccess(info?: readonly string[]) {
  toast('green', info?.[0] ?? i18next.t('main.success'));
}

export function notifyError(error: unknown) {
  toast('red', errorText(error));
}

/** docs/behaviour/shell-session-domains.md#errors: the permissions no longer allow the action (the form or dialog closes). */
export const notifyNoPermission = () => toast('red', i18next.t('main.no_permission'));
