import type { Expiring, ListKinds } from '@atalaya/contract';
import type { QueryClient } from '@tanstack/react-query';
import { expiringQuery, markStartupAnswer } from '../features/dashboard/expiringQuery.ts';
import { answerOf } from '../lib/api.ts';
import { listKindsQuery } from '../lib/permissions.ts';
import { createRouter, RouterView } from '../lib/router/router.tsx';
import { LoginModal } from './LoginModal.tsx';
import { Providers } from './Providers.tsx';
import { routes } from './router.tsx';
import { RouteError } from './shell/RouteError.tsx';

// Made when this chunk arrives, during start-up: the router starts fetching the current screen's
// chunks (route `lazy`) while the start-up calls are still on their way.
const router = createRouter(routes);

/** The signed-in panel (and every page but the sign-in one opened directly): router and shell. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <Providers queryClient={queryClient}>
      <RouterView router={router} fallback={RouteError} />
      <LoginModal />
    </Providers>
  );
}

/**
 * Which lists the user has (the side menu's entries), asked for by the entry (lib/startupCalls.ts) for a signed-in user: the side
 * menu's and the dashboard's query finds this answer in flight or done instead of asking again
 * once they render, a round trip later. A failed answer leaves the query in error, and the first
 * screen that uses it asks again (retryOnMount), through api.ts and its login modal. Here, not in
 * app/boot.ts, so the sign-in page does not carry it.
 */
export function adoptListKinds(queryClient: QueryClient, sent: Promise<Response>) {
  void queryClient.prefetchQuery({ ...listKindsQuery, queryFn: () => answerOf<ListKinds>(sent).then((r) => r.data) });
}

/** The dashboard's "expiring soon" list, asked for by the entry on /admin/: adopted like the list kinds above. */
export function adoptExpiring(queryClient: QueryClient, sent: Promise<Response>) {
  void queryClient
    .prefetchQuery({ ...expiringQuery, queryFn: () => answerOf<{ expiring: Expiring[] }>(sent).then((r) => r.data.expiring) })
    .then(() => markStartupAnswer(queryClient.getQueryState(expiringQuery.queryKey)?.dataUpdatedAt));
}
