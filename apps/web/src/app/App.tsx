import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { LIMITS } from '@atalaya/contract';
import { buildTheme, themeManager, useColor } from '../lib/theme.ts';
import { LoginModal } from './LoginModal.tsx';
import { createRouter } from './router.tsx';

const colorSchemeManager = themeManager();

export function App({ queryClient }: { queryClient: QueryClient }) {
  const color = useColor();
  const theme = useMemo(() => buildTheme(color), [color]);
  const router = useMemo(createRouter, []);
  return (
    <MantineProvider theme={theme} defaultColorScheme="auto" colorSchemeManager={colorSchemeManager}>
      <QueryClientProvider client={queryClient}>
        <Notifications position="bottom-right" autoClose={LIMITS.toastMs} />
        <RouterProvider router={router} />
        <LoginModal />
      </QueryClientProvider>
    </MantineProvider>
  );
}
