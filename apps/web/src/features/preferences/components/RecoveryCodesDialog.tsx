import { Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { useTranslation } from '../../../lib/i18n.ts';

/** The recovery codes, shown this once: the server keeps only their hashes. */
export function RecoveryCodesDialog({ codes, onClose }: { codes: string[] | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog opened={Boolean(codes)} onClose={onClose} title={t('factors.recovery_title')}>
      <Stack>
        <Text size="sm">{t('factors.recovery_intro')}</Text>
        <SimpleGrid cols={2} spacing="xs" aria-label={t('factors.recovery_title')} data-testid="recovery-codes">
          {(codes ?? []).map((code) => (
            <Code key={code} fz="md">
              {code}
            </Code>
          ))}
        </SimpleGrid>
        <Group justify="flex-end">
          <Button onClick={onClose}>{t('factors.recovery_saved')}</Button>
        </Group>
      </Stack>
    </Dialog>
  );
}
