import { MantineProvider } from '@mantine/core';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { buildTheme, themeManager, useColor } from '../lib/theme.ts';
import { LoginModal } from './LoginModal.tsx';
import { createRouter } from './router.tsx';

const colorSchemeManager = themeManager();
const Toasts = lazy(() => import('./Toasts.tsx'));

export function App({ queryClient }: { queryClient: QueryClient }) {
  const color = useColor();
  const theme = useMemo(() => buildTheme(color), [color]);
  const router = useMemo(createRouter, []);
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <LoginModal />
        <Suspense fallback={null}>
          <Toasts />
        </Suspense>
      </QueryClientProvider>
    </MantineProvider>
  );
}
