import { notifyError } from './notify.ts';

/**
 * The browser's own "ResizeObserver loop completed with undelivered notifications" (and the older
 * "loop limit exceeded"): harmless, raised by layouts that settle within a frame, never the user's concern.
 */
export const isResizeObserverLoop = (message: unknown) => typeof message === 'string' && /ResizeObserver loop/.test(message);

/**
 * Errors nothing else caught, handled in one place (docs/behaviour/shell-session-domains.md#errors): a failed call or a
 * thrown error the screens did not handle toasts its translated text; ResizeObserver loop errors
 * are ignored. Failed queries and mutations toast from the query client (app/queryClient.ts), a
 * page that cannot render ends in the route's 404 view (app/shell/RouteError.tsx).
 */
export function installErrorHandlers(target: Window = window) {
  target.addEventListener('error', (event) => {
    if (isResizeObserverLoop(event.message)) {
      event.stopImmediatePropagation();
      event.preventDefault();
      return;
    }
    if (event.error) notifyError(event.error);
  });
  target.addEventListener('unhandledrejection', (event) => {
    event.preventDefault();
    notifyError(event.reason);
  });
}

/** `system.debug` of an answer goes to the browser console, one entry a line, for whoever is looking. */
export function logDebug(debug: readonly string[] | undefined) {
  for (const line of debug ?? []) console.debug('[atalaya]', line);
}
