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

/** Success toast: the server's first info message, else 'Operation done successfully'. */
export function notifySuccess(info?: readonly string[]) {
  notifications.show({ color: 'green', message: info?.[0] ?? i18next.t('main.success'), autoClose: LIMITS.toastMs });
}

export function notifyError(error: unknown) {
  notifications.show({ color: 'red', message: errorText(error), autoClose: LIMITS.toastMs });
}

/** docs/behaviour/shell-session-domains.md#errors: the permissions no longer allow the action (the form or dialog closes). */
export const notifyNoPermission = () =>
  notifications.show({ color: 'red', message: i18next.t('main.no_permission'), autoClose: LIMITS.toastMs });
