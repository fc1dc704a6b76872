import './styles.ts';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { boot } from './app/boot.ts';
import { Providers } from './app/Providers.tsx';
import LoginPage from './features/session/LoginPage.tsx';
import { userInfoQuery } from './lib/session.ts';

type Panel = Promise<typeof import('./app/App.tsx')>;

/**
 * Start-up, then the first render. /login/ for a visitor is the sign-in page alone, without the
 * router and the shell (DESIGN §8: 140 KB); every other page, or a signed-in user there, gets the
 * panel (`panel`, already on its way, see main.tsx).
 */
export async function start(onLoginPage: boolean, panel: Panel | null, loadPanel: () => Panel) {
  const queryClient = await boot();
  let ui: ReactNode;
  if (onLoginPage && !queryClient.getQueryData(userInfoQuery.queryKey)) {
    ui = (
      <Providers queryClient={queryClient}>
        <LoginPage />
      </Providers>
    );
  } else {
    const { App } = await (panel ?? loadPanel());
    ui = <App queryClient={queryClient} />;
  }
  createRoot(document.getElementById('root')!).render(<StrictMode>{ui}</StrictMode>);
}
