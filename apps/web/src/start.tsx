import './styles.ts';
import { type ReactNode, StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { boot } from './app/boot.ts';
import { Providers } from './app/Providers.tsx';
import LoginPage from './features/session/LoginPage.tsx';
import { installErrorHandlers } from './lib/errors.ts';
import { userInfoQuery } from './lib/session.ts';
import type { StartupCalls } from './lib/startupCalls.ts';

type Panel = Promise<typeof import('./app/App.tsx')>;

/**
 * Start-up, then the first render. /login/ for a visitor is the sign-in page alone, without the
 * router and the shell (docs/design.md#budgets: 140 KB); every other page, or a signed-in user there, gets the
 * panel (`panel`, already on its way, see main.tsx). `calls`: the start-up calls the entry sent.
 */
export async function start(onLoginPage: boolean, panel: Panel | null, loadPanel: () => Panel, calls: StartupCalls) {
  installErrorHandlers();
  const queryClient = await boot(calls);
  let ui: ReactNode;
  if (onLoginPage && !queryClient.getQueryData(userInfoQuery.queryKey)) {
    ui = (
      <Providers queryClient={queryClient}>
        <LoginPage />
      </Providers>
    );
  } else {
    const { App, adoptExpiring, adoptListKinds } = await (panel ?? loadPanel());
    // Without a session the entry's list call was refused and is left unread (the frame's guard
    // sends the visitor to the sign-in page).
    // A user who must first enrol a second factor is refused the list (decision 021): nothing to adopt.
    const user = queryClient.getQueryData(userInfoQuery.queryKey);
    if (calls.list && user && !user.mustEnrol) adoptListKinds(queryClient, calls.list);
    if (calls.expiring && user && !user.mustEnrol) adoptExpiring(queryClient, calls.expiring);
    ui = <App queryClient={queryClient} />;
  }
  const root = createRoot(document.getElementById('root')!);
  // As a transition React renders in slices of a few milliseconds instead of one long task, which
  // on a slow phone held the page for half a second after the first paint (TBT, docs/design.md#budgets).
  startTransition(() => root.render(<StrictMode>{ui}</StrictMode>));
}
