import { Alert, Button, CopyButton, Group, Stack, TextInput } from '@mantine/core';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { useTranslation } from '../../../lib/i18n.ts';

/** The new token, the only time it is shown: the server keeps only its hash. */
export function TokenCreatedDialog({ token, onClose }: { token: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog opened={token !== null} onClose={onClose} title={t('tokens.created_title')} size="lg">
      <Stack>
        <Alert color="yellow">{t('tokens.created_warning')}</Alert>
        <TextInput
          readOnly
          value={token ?? ''}
          aria-label={t('tokens.created_title')}
          styles={{ input: { fontFamily: 'monospace' } }}
          onFocus={(e) => e.currentTarget.select()}
        />
        <Group justify="flex-end">
          <CopyButton value={token ?? ''}>
            {({ copied, copy }) => (
              <Button variant="light" onClick={copy}>
                {copied ? t('tokens.copied') : t('tokens.copy')}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>{t('tokens.done')}</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
