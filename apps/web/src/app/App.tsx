import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { addTexts } from '../lib/i18n.ts';
import { FEATURE_TEXTS } from '../locales/index.ts';
import { LoginModal } from './LoginModal.tsx';
import { Providers } from './Providers.tsx';
import { createRouter } from './router.tsx';

addTexts(FEATURE_TEXTS);

// Made when this chunk arrives, during start-up: the router starts fetching the current screen's
// chunks (route `lazy`) while the start-up calls are still on their way.
const router = createRouter();

/** The signed-in panel (and every page but the sign-in one opened directly): router and shell. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
      <LoginModal />
    </Providers>
  );
}
