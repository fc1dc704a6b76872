import { LIMITS } from '@atalaya/contract';
import { notifications } from '@mantine/notifications';
import { ApiFailure } from './api.ts';
import { t } from './i18n.ts';

/** docs/behaviour/shell-session-domains.md#errors: the text of a failure; '404' and '500' become the 'not found' and 'internal error' texts. */
export function errorText(error: unknown): string {
  if (error instanceof ApiFailure) {
    if (error.message === '404') return t('main.not_found');
    if (error.message === '500') return error.errors[0] ?? t('shell.internal_error');
    if (error.message === 'error') return t('shell.error');
    return error.message;
  }
  return t('shell.error');
}

// Every toast: its × has no text, so screen readers get its name.
const toast = (color: 'green' | 'red', message: string) =>
  notifications.show({ color, message, autoClose: LIMITS.toastMs, closeButtonProps: { 'aria-label': t('shell.close') } });

/** Success toast: the server's first info message, else 'Operation done successfully'. */
export function notifySuccess(info?: readonly string[]) {
  toast('green', info?.[0] ?? t('main.success'));
}

export function notifyError(error: unknown) {
  toast('red', errorText(error));
}

/** docs/behaviour/shell-session-domains.md#errors: the permissions no longer allow the action (the form or dialog closes). */
export const notifyNoPermission = () => toast('red', t('main.no_permission'));
