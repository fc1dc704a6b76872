import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useMemo, useState } from 'react';
import { buildTheme, cssVariablesResolver, themeManager, useColor } from '../lib/theme.ts';

const colorSchemeManager = themeManager();
const Toasts = lazy(() => import('./Toasts.tsx'));

/**
 * The toast area loads with the first toast, not with the page: the sign-in page rarely shows one
 * (docs/design.md#budgets). Toasts shown before it arrives wait in the store and appear once it does.
 */
function ToastsOnDemand() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}

/** Theme, colour scheme, queries and toasts: what the sign-in page and the signed-in app share. */
export function Providers({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const color = useColor();
  const theme = useMemo(() => buildTheme(color), [color]);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme="auto"
      colorSchemeManager={colorSchemeManager}
      cssVariablesResolver={cssVariablesResolver}
    >
      <QueryClientProvider client={queryClient}>
        {children}
        <ToastsOnDemand />
      </QueryClientProvider>
    </MantineProvider>
  );
}
