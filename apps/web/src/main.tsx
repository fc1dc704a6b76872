import './styles.ts';
import { type ReactNode, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { boot } from './app/boot.ts';
import { Providers } from './app/Providers.tsx';
import LoginPage from './features/session/LoginPage.tsx';
import { userInfoQuery } from './lib/session.ts';

/**
 * /login/ for a visitor is the sign-in page alone, without the router and the shell (DESIGN §8:
 * 140 KB). Every other page, or a signed-in user there, gets the panel, whose chunk downloads
 * during start-up.
 */
const onLoginPage = /^\/login\/?$/.test(location.pathname);
const loadPanel = () => import('./app/App.tsx');
const panel = onLoginPage ? null : loadPanel();

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
