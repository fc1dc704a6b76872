import type { Enrolled, TotpStart } from '@atalaya/contract';
import { Center, Code, Image, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { confirmTotp, factorsQuery } from '../api/factors.ts';

interface Props {
  /** The new secret the server handed out after re-authentication; null: the dialog is closed. */
  start: TotpStart | null;
  onClose: () => void;
  /** The recovery codes that came with a first factor. */
  onCodes: (codes: string[]) => void;
}

/** Scan the QR code (or type the secret) into an authenticator app, then confirm with a first code. */
export function TotpDialog({ start, onClose, onCodes }: Props) {
  const { t } = useTranslation();
  const opened = start !== null;
  const [code, setCode] = useState('');
  const confirm = useFormMutation({
    opened,
    send: () => confirmTotp({ token: start?.token ?? '', code }),
    inputs: ['code'],
    onClose,
    reload: [factorsQuery.queryKey, ['user', 'info']],
    onDone: (result: { data: Enrolled }) => result.data.recoveryCodes && onCodes(result.data.recoveryCodes),
  });
  useEffect(() => {
    if (opened) setCode('');
  }, [opened]);
  return (
    <FormDialog
      title={t('factors.add_app')}
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={confirm}
      submitLabel={t('factors.verify')}
      submitDisabled={!code.trim()}
    >
      {start && (
        <Stack gap="sm">
          <Text size="sm">{t('factors.app_intro')}</Text>
          <Center>
            <Image src={start.qr} alt={t('factors.qr_alt')} w={200} h={200} />
          </Center>
          <Text size="sm">{t('factors.secret_label')}</Text>
          <Code block data-testid="totp-secret">
            {start.secret}
          </Code>
          <TextInput
            label={t('factors.app_code')}
            name="code"
            autoComplete="one-time-code"
            inputMode="numeric"
            value={code}
            onChange={(event) => setCode(event.currentTarget.value)}
            error={fieldError(confirm.error, 'code')}
          />
        </Stack>
      )}
    </FormDialog>
  );
}
