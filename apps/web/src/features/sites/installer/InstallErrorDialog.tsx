import { Button, Group, Stack, Text } from '@mantine/core';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { useTranslation } from '../../../lib/i18n.ts';

/** docs/behaviour/service-area-dns.md#errors: an install error shows its name, its message and an accept button. */
export function InstallErrorDialog({ error, onAccept }: { error: { name: string; message: string } | null; onAccept: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog opened={error !== null} onClose={onAccept} title={t('sites.install_error')} centered>
      <Stack gap="xs" role="alert">
        <Text fw={600}>{error?.name}</Text>
        <Text className="break-anywhere">{error?.message}</Text>
      </Stack>
      <Group justify="flex-end" mt="md">
        <Button onClick={onAccept}>{t('sites.accept')}</Button>
      </Group>
    </Dialog>
  );
}
