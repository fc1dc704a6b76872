import { Button, Text } from '@mantine/core';
import { Dialog } from '../components/ui/Dialog.tsx';
import { LoginForm } from '../features/session/components/LoginForm.tsx';
import { tellOtherTabs } from '../lib/broadcast.ts';
import { useTranslation } from '../lib/i18n.ts';

/** Domain name, username, password and captcha over the current page; "go to login" leaves it. */
export default function LoginDialog({ onSignedIn }: { onSignedIn: () => void }) {
  const { t } = useTranslation();
  const signedIn = () => {
    tellOtherTabs({ type: 'session' });
    onSignedIn();
  };
  return (
    <Dialog
      opened
      onClose={() => undefined}
      withCloseButton={false}
      closeOnClickOutside={false}
      title={t('shell.session_expired_title')}
      centered
    >
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
