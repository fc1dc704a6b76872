import { Button, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../components/ui/Dialog.tsx';
import { LoginForm } from '../features/session/components/LoginForm.tsx';
import { setSessionExpiredHandler } from '../lib/api.ts';
import { tellOtherTabs } from '../lib/broadcast.ts';

/**
 * Status 101 on any call (spec §4) opens this dialog; every call waiting on it is replayed once the
 * user has signed in again, so the interrupted action completes without losing the page.
 */
export function LoginModal() {
  const { t } = useTranslation();
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

  const signedIn = () => {
    for (const resume of waiting ?? []) resume();
    setWaiting(null);
    tellOtherTabs({ type: 'session' });
  };

  return (
    <Dialog opened={waiting !== null} onClose={() => undefined} withCloseButton={false} closeOnClickOutside={false} title={t('shell.session_expired_title')} centered>
      <Text size="sm" mb="sm">
        {t('main.session_expired')}
      </Text>
      <LoginForm
        onSignedIn={signedIn}
        extra={
          <Button variant="subtle" onClick={() => window.location.assign('/login/')} fullWidth>
            {t('shell.go_to_login')}
          </Button>
        }
      />
    </Dialog>
  );
}
