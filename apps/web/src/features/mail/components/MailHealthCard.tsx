import type { MailFinding } from '@atalaya/contract';
import { Badge, Button, Card, Group, List, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { mailHealthQuery } from '../api/mail.ts';
import { MailRecordsDialog } from './MailRecordsDialog.tsx';

export const LEVEL_COLOR: Record<MailFinding['level'], string> = { ok: 'teal', warning: 'yellow', error: 'red' };

/** The mail health card: MX, SPF, DKIM, DMARC and MTA-STS as the world sees them, each finding with its fix. */
export function MailHealthCard({ id }: { id: number }) {
  const { t } = useTranslation();
  const [checking, setChecking] = useState(false);
  const [records, setRecords] = useState(false);
  const health = useQuery({ ...mailHealthQuery(id), enabled: checking || records });
  return (
    <Card withBorder data-testid="mail-health">
      <Stack gap="sm">
        {/* Not a heading: the page's one heading is the mail list's, which the screen is found by. */}
        <Text fw={600}>{t('hosting.mail_health')}</Text>
        <Text size="sm" c="dimmed">
          {t('hosting.mail_health_hint')}
        </Text>
        <Group gap="xs">
          <Button
            variant="light"
            size="xs"
            loading={checking && health.isFetching}
            onClick={() => (checking ? health.refetch() : setChecking(true))}
          >
            {t('hosting.mail_health_check')}
          </Button>
          <Button variant="default" size="xs" onClick={() => setRecords(true)}>
            {t('hosting.mail_records')}
          </Button>
        </Group>
        {checking && health.data && (
          <List spacing={6} listStyleType="none" data-testid="mail-findings">
            {health.data.findings.map((f) => (
              <List.Item key={`${f.check}-${f.code}-${f.text}`} data-testid={`mail-finding-${f.code}`}>
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  <Badge size="sm" variant="outline" w={70}>
                    {t(`hosting.mail_check_${f.check}`)}
                  </Badge>
                  <Badge size="sm" variant="light" color={LEVEL_COLOR[f.level]}>
                    {t(`hosting.mail_level_${f.level}`)}
                  </Badge>
                  <Stack gap={0}>
                    <Text size="sm">{f.text}</Text>
                    {f.fix && (
                      <Text size="sm" c="dimmed">
                        {f.fix}
                      </Text>
                    )}
                  </Stack>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
      <MailRecordsDialog id={id} opened={records} onClose={() => setRecords(false)} />
    </Card>
  );
}
