import type { LoginAnswer, SecondFactorChallenge } from '@atalaya/contract';
import { Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { ApiFailure } from '../../../lib/api.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { errorText } from '../../../lib/notify.ts';
import { passkeyAssertion, secondStep } from '../api/secondStep.ts';

interface Props {
  challenge: SecondFactorChallenge;
  onSignedIn: (answer: LoginAnswer) => void;
  /** The challenge expired or was refused for good: back to the password step. */
  onRestart: () => void;
}

/** The sign-in's second step (decision 021): a code of the authenticator app, a passkey, or a recovery code. */
export function SecondStepForm({ challenge, onSignedIn, onRestart }: Props) {
  const { t } = useTranslation();
  const [recovery, setRecovery] = useState(!challenge.totp && !challenge.passkey);
  const [code, setCode] = useState('');
  const [passkeyError, setPasskeyError] = useState<string | null>(null);
  // Like the first step, every failure shows under the form.
  const step = useFormMutation({ send: secondStep, showsFailures: true, onDone: onSignedIn });
  const send = (fields: { code?: string; recoveryCode?: string; credential?: string }) =>
    step.mutate(
      { challenge: challenge.challenge, ...fields },
      {
        onError: (error) => {
          if (error instanceof ApiFailure && error.status === 401) onRestart();
        },
      },
    );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(recovery ? { recoveryCode: code } : { code });
  };
  const signWithPasskey = async () => {
    setPasskeyError(null);
    try {
      send({ credential: await passkeyAssertion(challenge) });
    } catch {
      setPasskeyError(t('factors.passkey_cancelled'));
    }
  };
  const field = recovery ? 'recoveryCode' : 'code';
  const general = step.error instanceof ApiFailure && step.error.inputs.includes(field) ? undefined : step.error && errorText(step.error);

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <Text size="sm">{t('factors.second_step_intro')}</Text>
        {challenge.passkey && (
          <Button variant="light" onClick={() => void signWithPasskey()} loading={step.isPending}>
            {t('factors.use_passkey')}
          </Button>
        )}
        {(challenge.totp || recovery) && (
          <TextInput
            label={recovery ? t('factors.recovery_code') : t('factors.app_code')}
            name={field}
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            data-autofocus
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={fieldError(step.error, field)}
          />
        )}
        {(passkeyError || general) && (
          <div role="alert" style={{ color: 'var(--mantine-color-error)' }}>
            {passkeyError ?? general}
          </div>
        )}
        {(challenge.totp || recovery) && (
          <Button type="submit" loading={step.isPending} disabled={!code.trim()} fullWidth>
            {t('factors.verify')}
          </Button>
        )}
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setRecovery(!recovery);
            setCode('');
            step.reset();
          }}
        >
          {recovery ? t('factors.use_app_instead') : t('factors.use_recovery')}
        </Anchor>
      </Stack>
    </form>
  );
}
