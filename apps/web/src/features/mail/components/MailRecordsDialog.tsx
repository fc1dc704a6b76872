import type { MailRecordView } from '@atalaya/contract';
import { Badge, Button, Code, CopyButton, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { mailHealthQuery } from '../api/mail.ts';

const LIVE_COLOR: Record<MailRecordView['live'], string> = { ok: 'teal', missing: 'red', different: 'yellow', unknown: 'gray' };

/** A record's value as a zone file or a DNS host's form takes it: TXT as quoted strings of at most 255 bytes, MX with its priority. */
const presented = (r: MailRecordView) =>
  r.type === 'TXT'
    ? r.strings.map((s) => `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`).join(' ')
    : r.type === 'MX'
      ? `${r.priority} ${r.value}`
      : r.value;

function CopyLink({ value, label }: { value: string; label: string }) {
  const { t } = useTranslation();
  return (
    <CopyButton value={value}>
      {({ copied, copy }) => (
        <Button size="compact-xs" variant="subtle" onClick={copy} aria-label={`${t(copied ? 'hosting.copied' : 'hosting.copy')} ${label}`}>
          {t(copied ? 'hosting.copied' : 'hosting.copy')}
        </Button>
      )}
    </CopyButton>
  );
}

/**
 * The records the mail domain needs, each with what the world sees now: published by the panel
 * where it hosts the zone, to copy to the DNS host where the zone is elsewhere.
 */
export function MailRecordsDialog({ id, opened, onClose }: { id: number; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const health = useQuery({ ...mailHealthQuery(id), enabled: opened });
  const data = health.data;
  return (
    <Dialog opened={opened} onClose={onClose} title={t('hosting.mail_records')} size="xl">
      <Stack>
        {!data && <Loader size="sm" />}
        {data && (
          <Text size="sm" data-testid="mail-records-hint">
            {t(data.hosted ? 'hosting.mail_records_hosted' : 'hosting.mail_records_elsewhere', { domain: data.domain })}
          </Text>
        )}
        {data?.records.map((r) => {
          const value = presented(r);
          return (
            <Stack key={`${r.purpose}-${r.name}-${r.value}`} gap={4} data-testid="mail-record">
              <Group gap="xs">
                <Badge variant="outline">{t(`hosting.mail_purpose_${r.purpose}`)}</Badge>
                <Code>{r.name}</Code>
                <CopyLink value={r.name} label={r.name} />
                <Badge variant="light">{r.type}</Badge>
                <Badge variant="light" color={LIVE_COLOR[r.live]} data-testid="mail-record-live">
                  {t(`hosting.mail_live_${r.live}`)}
                </Badge>
              </Group>
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Code block className="break-anywhere" style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap' }}>
                  {value}
                </Code>
                <CopyLink value={value} label={`${r.name} ${r.type}`} />
              </Group>
            </Stack>
          );
        })}
        {data?.mtaStsPolicy && (
          <Stack gap={4}>
            <Text size="sm">
              {t(data.mtaStsServed ? 'hosting.mail_mtasts_policy_served' : 'hosting.mail_mtasts_policy', {
                url: `https://mta-sts.${data.domain}/.well-known/mta-sts.txt`,
              })}
            </Text>
            <Code block>{data.mtaStsPolicy}</Code>
          </Stack>
        )}
        {data && (
          <Button variant="default" onClick={() => health.refetch()} loading={health.isFetching} w="fit-content">
            {t('hosting.mail_records_recheck')}
          </Button>
        )}
      </Stack>
    </Dialog>
  );
}
