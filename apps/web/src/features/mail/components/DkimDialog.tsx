import { Badge, Button, Code, CopyButton, Group, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { dkimKey, dkimQuery, rotateDkim } from '../api/mail.ts';

/** The domain's DKIM records to publish where its zone is hosted (quoted strings of at most 255 bytes), and a rotation. */
export function DkimDialog({ id, opened, onClose }: { id: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { check, canCall } = usePermissions(id);
  const keys = useQuery({ ...dkimQuery(id), enabled: opened });
  const rotate = useFormMutation({
    permission: { check, call: endpoints.service.dkimRotate },
    send: () => rotateDkim(id),
    reload: [dkimKey(id)],
  });
  return (
    <Dialog opened={opened} onClose={onClose} title={t('hosting.dkim')} size="lg">
      <Stack>
        <Text size="sm">{t('hosting.dkim_hint')}</Text>
        {keys.data?.map((key) => {
          const value = key.record.strings.map((s) => `"${s}"`).join(' ');
          return (
            <Stack key={key.selector} gap={4} data-testid="dkim-record">
              <Group gap="xs">
                <Code>{key.record.name}</Code>
                <Badge variant="light">TXT</Badge>
                <Badge variant="light" color={key.state === 'signing' ? 'teal' : 'gray'}>
                  {t(`hosting.dkim_${key.state}`)}
                </Badge>
              </Group>
              <Code block className="break-anywhere">
                {value}
              </Code>
              <CopyButton value={value}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="subtle" onClick={copy} w="fit-content">
                    {t(copied ? 'hosting.copied' : 'hosting.copy')}
                  </Button>
                )}
              </CopyButton>
            </Stack>
          );
        })}
        {canCall(endpoints.service.dkimRotate) && (
          <Button variant="default" onClick={() => rotate.mutate()} loading={rotate.isPending} w="fit-content">
            {t('hosting.dkim_rotate')}
          </Button>
        )}
      </Stack>
    </Dialog>
  );
}
