import type { MailConfig } from '@atalaya/contract';
import { Table } from '@mantine/core';
import { Dialog } from '../../../components/ui/Dialog.tsx';
import { useTranslation } from '../../../lib/i18n.ts';

/** Server names for mail programs: the provider's SSL hosts and the domain's own non-SSL names. */
export function MailConfigDialog({ config, opened, onClose }: { config: MailConfig | undefined; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog opened={opened} onClose={onClose} title={t('hosting.mail_config')}>
      {config && (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th />
              <Table.Th>IMAP</Table.Th>
              <Table.Th>SMTP</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            <Table.Tr>
              <Table.Td>{t('hosting.with_ssl')}</Table.Td>
              <Table.Td>{config.imapSsl}</Table.Td>
              <Table.Td>{config.smtpSsl}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Td>{t('hosting.without_ssl')}</Table.Td>
              <Table.Td>{config.imap}</Table.Td>
              <Table.Td>{config.smtp}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
      )}
    </Dialog>
  );
}
