import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiFailure } from '../../lib/api.ts';
import { notifyError } from '../../lib/notify.ts';
import { reloadPermissions } from '../../lib/permissions.ts';
import { useParams, useRouteError } from '../../lib/router/hooks.ts';
import { NotFoundView } from './NotFoundView.tsx';

/**
 * The one place a page that cannot render ends (docs/behaviour/shell-session-domains.md#errors): its main load
 * failed, or it threw. The page becomes the 404 view, an error that is not a failed call toasts the
 * generic text, and the item's permissions are reloaded (they may have changed meanwhile).
 */
export function RouteError() {
  const error = useRouteError();
  const { id } = useParams();
  const client = useQueryClient();
  useEffect(() => {
    // A failed call has toasted already (app/queryClient.ts); anything else thrown has not.
    if (!(error instanceof ApiFailure)) notifyError(error);
    if (id) reloadPermissions(client, id);
  }, [error, id, client]);
  return <NotFoundView />;
}
