import type { LoginAnswer, SecondFactorChallenge } from '@atalaya/contract';
import { Button, Loader, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { bindText, fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { ApiFailure } from '../../../lib/api.ts';
import { addTexts, useTranslation } from '../../../lib/i18n.ts';
import { errorText } from '../../../lib/notify.ts';
import { login as sendLogin } from '../api/login.ts';
import { Captcha } from './Captcha.tsx';

// The second step and its texts load when the password is sent, i.e. while the server checks it:
// most users have no second factor, and the sign-in page must stay small (docs/design.md#budgets).
// Its passkey code (SimpleWebAuthn) loads later still, on the passkey button (api/secondStep.ts).
let secondStep: Promise<{ default: typeof import('./SecondStepForm.tsx').SecondStepForm }> | undefined;
function loadSecondStep() {
  secondStep ??= Promise.all([import('./SecondStepForm.tsx'), import('../../../locales/secondStep.ts')]).then(([form, texts]) => {
    addTexts(texts.SECOND_STEP_TEXTS);
    return { default: form.SecondStepForm };
  });
  return secondStep.catch((error: unknown) => {
    secondStep = undefined; // a failed download is tried again next time
    throw error;
  });
}
const SecondStepForm = lazy(loadSecondStep);

interface Props {
  onSignedIn: (answer: LoginAnswer) => void;
  /** Extra buttons next to "log in" (the modal's "go to login"). */
  extra?: React.ReactNode;
}

/**
 * Domain name, username, password and the captcha (docs/behaviour/shell-session-domains.md#sign-in-page), then the second factor
 * when the user has one; used by the page and the modal.
 */
export function LoginForm({ onSignedIn, extra }: Props) {
  const { t } = useTranslation();
  const [fields, setFields] = useState({ domainName: '', username: '', password: '' });
  const [captcha, setCaptcha] = useState('');
  const [round, setRound] = useState(0);
  const [missing, setMissing] = useState<string[]>([]);
  // Set once the password was right and a second factor is due (decision 021).
  const [second, setSecond] = useState<SecondFactorChallenge | null>(null);
  // The sign-in page writes every failure under its form, never as a toast.
  const login = useFormMutation({
    send: sendLogin,
    showsFailures: true,
    onDone: (answer) => (answer.secondFactor ? setSecond(answer.secondFactor) : onSignedIn(answer)),
  });
  const text = bindText(fields, (key, value) => setFields({ ...fields, [key]: value }), login.error);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const empty = Object.entries(fields)
      .filter(([, value]) => !value.trim())
      .map(([name]) => name);
    setMissing(empty);
    if (empty.length > 0) return;
    void loadSecondStep().catch(() => undefined);
    login.mutate(
      { ...fields, recaptcha_response: captcha },
      {
        // A used challenge is refused by the server: every attempt gets a fresh one.
        onError: () => {
          setCaptcha('');
          setRound((r) => r + 1);
        },
      },
    );
  };
  const errorOf = (name: string) => (missing.includes(name) ? t('validation.required') : fieldError(login.error, name));
  const general = login.error instanceof ApiFailure && login.error.inputs.length > 0 ? undefined : login.error && errorText(login.error);

  if (second) {
    const restart = () => {
      setSecond(null);
      setCaptcha('');
      setRound((r) => r + 1);
    };
    return (
      <Suspense fallback={<Loader aria-label={t('main.loading')} />}>
        <SecondStepForm challenge={second} onSignedIn={onSignedIn} onRestart={restart} />
      </Suspense>
    );
  }
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          {...text('domainName')}
          label={t('shell.domain_name')}
          autoComplete="organization"
          required
          error={errorOf('domainName')}
        />
        <TextInput {...text('username')} label={t('shell.username')} autoComplete="username" required error={errorOf('username')} />
        <PasswordInput
          {...text('password')}
          label={t('shell.password')}
          autoComplete="current-password"
          required
          error={errorOf('password')}
        />
        <Captcha key={round} onSolved={setCaptcha} error={fieldError(login.error, 'recaptcha_response')} />
        {general && (
          <div role="alert" style={{ color: 'var(--mantine-color-error)' }}>
            {general}
          </div>
        )}
        <Stack gap="xs">
          <Button type="submit" loading={login.isPending} disabled={!captcha} fullWidth>
            {t('shell.login')}
          </Button>
          {extra}
        </Stack>
      </Stack>
    </form>
  );
}
