import './styles.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { boot } from './app/boot.ts';

// The sign-in screen's chunk downloads while start-up waits for the server, not after it.
if (location.pathname.startsWith('/login')) void import('./features/session/LoginPage.tsx');

const queryClient = await boot();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App queryClient={queryClient} />
  </StrictMode>,
);
