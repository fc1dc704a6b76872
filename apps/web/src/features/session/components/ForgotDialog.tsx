import { Button, Group, Stack, Textarea, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { bindText, fieldError } from '../../../components/ui/fieldErrors.ts';
import { PrivacyCheckbox } from '../../../components/ui/PrivacyCheckbox.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { sendForgot } from '../api/contact.ts';
import { Captcha } from './Captcha.tsx';

const EMPTY = { domain: '', user: '', name: '', email: '', contents: '' };
const TEXT_FIELDS = ['domain', 'user', 'name', 'email', 'contents'] as const;

/** "Forgot your password?": a message to the provider, who resets it (docs/behaviour/shell-session-domains.md#sign-in-page). */
export default function ForgotDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [fields, setFields] = useState(EMPTY);
  const [privacy, setPrivacy] = useState(false);
  const [captcha, setCaptcha] = useState('');
  const [round, setRound] = useState(0);
  const send = useFormMutation({
    opened,
    send: sendForgot,
    inputs: TEXT_FIELDS,
    onClose,
    onDone: () => {
      setFields(EMPTY);
      setPrivacy(false);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send.mutate(
      { ...fields, privacy, recaptcha_response: captcha },
      {
        onSettled: () => {
          setCaptcha('');
          setRound((r) => r + 1);
        },
      },
    );
  };
  const text = bindText(fields, (key, value) => setFields({ ...fields, [key]: value }), send.error);
  const input = (name: (typeof TEXT_FIELDS)[number]) => ({ ...text(name), label: t(`shell.forgot_${name}`), required: true });

  return (
    <Dialog opened={opened} onClose={onClose} title={t('shell.forgot_title')} size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput {...input('domain')} />
          <TextInput {...input('user')} autoComplete="username" />
          <TextInput {...input('name')} autoComplete="name" />
          <TextInput {...input('email')} type="email" autoComplete="email" />
          <Textarea {...input('contents')} rows={5} />
          <PrivacyCheckbox checked={privacy} onChange={setPrivacy} />
          {opened && <Captcha key={round} onSolved={setCaptcha} error={fieldError(send.error, 'recaptcha_response')} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('shell.cancel')}
            </Button>
            <Button type="submit" disabled={!privacy || !captcha} loading={send.isPending}>
              {t('shell.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
