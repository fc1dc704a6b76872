import { Code, Loader, ScrollArea, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { errorLog } from '../api/service.ts';

/** The service's recent error lines, newest first (the server's order). Rendered as text only. */
export function ErrorLogDialog({ id, opened, onClose }: { id: number; opened: boolean; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const query = useQuery({ queryKey: ['service', id, 'logerror'], queryFn: () => errorLog(id), enabled: opened, staleTime: 0 });
  return (
    <Dialog opened={opened} onClose={onClose} title={t('hosting.error_log')} size="xl">
      {!query.data ? (
        <Loader size="sm" />
      ) : query.data.length === 0 ? (
        <Text c="dimmed">{t('hosting.error_log_empty')}</Text>
      ) : (
        <ScrollArea.Autosize mah="60vh">
          <Stack gap={4} data-testid="error-log">
            {query.data.map((line, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: log lines have no id and never reorder
              <Code key={i} block>
                {`${formatDateTime(line.ts, i18n.language)} [${line.level}] ${line.message}`}
              </Code>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Dialog>
  );
}
