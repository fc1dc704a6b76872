import type { Enrolled } from '@atalaya/contract';
import { Center, Code, Image, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { confirmTotp, factorsQuery, startTotp } from '../api/factors.ts';

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The recovery codes that came with a first factor. */
  onCodes: (codes: string[]) => void;
}

/** Scan the QR code (or type the secret) into an authenticator app, then confirm with a first code. */
export function TotpDialog({ opened, onClose, onCodes }: Props) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  // A new secret (and a fresh 5-minute token) at each opening, never a cached one.
  const [round, setRound] = useState(0);
  const start = useQuery({
    queryKey: ['user', 'totp-start', round],
    queryFn: startTotp,
    enabled: opened,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const confirm = useFormMutation({
    opened,
    send: () => confirmTotp({ token: start.data?.token ?? '', code }),
    inputs: ['code'],
    onClose,
    reload: [factorsQuery.queryKey, ['user', 'info']],
    onDone: (result: { data: Enrolled }) => result.data.recoveryCodes && onCodes(result.data.recoveryCodes),
  });
  useEffect(() => {
    if (!opened) return;
    setCode('');
    setRound((r) => r + 1);
  }, [opened]);
  return (
    <FormDialog
      title={t('factors.add_app')}
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={confirm}
      submitLabel={t('factors.verify')}
      submitDisabled={!start.data || !code.trim()}
    >
      {!start.data ? (
        <Center>
          <Loader aria-label={t('main.loading')} />
        </Center>
      ) : (
        <Stack gap="sm">
          <Text size="sm">{t('factors.app_intro')}</Text>
          <Center>
            <Image src={start.data.qr} alt={t('factors.qr_alt')} w={200} h={200} />
          </Center>
          <Text size="sm">{t('factors.secret_label')}</Text>
          <Code block data-testid="totp-secret">
            {start.data.secret}
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
