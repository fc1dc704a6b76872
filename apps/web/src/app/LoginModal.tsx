import { lazy, Suspense, useEffect, useState } from 'react';
import { setSessionExpiredHandler } from '../lib/api.ts';

// The dialog and its form load only when a session actually expires: the sign-in page does not pay for them.
const LoginDialog = lazy(() => import('./LoginDialog.tsx'));

/**
 * Status 101 on any call (docs/behaviour/shell-session-domains.md#login-dialog) opens the login dialog; every call waiting on it is replayed
 * once the user has signed in again, so the interrupted action completes without losing the page.
 */
export function LoginModal() {
  const [waiting, setWaiting] = useState<(() => void)[] | null>(null);

  useEffect(() => {
    setSessionExpiredHandler(
      () =>
        new Promise<void>((resolve) => {
          setWaiting((current) => [...(current ?? []), resolve]);
        }),
    );
    return () => setSessionExpiredHandler(null);
  }, []);

  if (!waiting) return null;
  const signedIn = () => {
    for (const resume of waiting) resume();
    setWaiting(null);
  };
  return (
    <Suspense fallback={null}>
      <LoginDialog onSignedIn={signedIn} />
    </Suspense>
  );
}
