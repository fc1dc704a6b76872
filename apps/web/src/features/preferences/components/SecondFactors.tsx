import type { Factor, TotpStart } from '@atalaya/contract';
import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatDate } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { useUser } from '../../../lib/session.ts';
import { factorsQuery, newRecoveryCodes, removeFactor, startTotp } from '../api/factors.ts';
import { PasskeyDialog } from './PasskeyDialog.tsx';
import { ReauthDialog } from './ReauthDialog.tsx';
import { RecoveryCodesDialog } from './RecoveryCodesDialog.tsx';
import { RenameFactorDialog } from './RenameFactorDialog.tsx';
import { TotpDialog } from './TotpDialog.tsx';

type Open = null | 'totp' | 'passkey' | 'codes' | { remove: Factor } | { rename: Factor };

/** The factor a dialog of this kind works on, or null. */
const dialogFactor = (open: Open, kind: 'remove' | 'rename'): Factor | null =>
  open && typeof open === 'object' && kind in open ? (open as Record<typeof kind, Factor>)[kind] : null;

/** Second factors (decision 021): the list, adding an authenticator app or a passkey, removing one, new recovery codes. */
export function SecondFactors() {
  const { t, i18n } = useTranslation();
  const list = useQuery(factorsQuery).data;
  const [open, setOpen] = useState<Open>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  // The new app's secret, handed out once the user has confirmed it is them.
  const [totp, setTotp] = useState<TotpStart | null>(null);
  // Sent here to enrol before anything else: once the codes are read, the whole panel opens afresh.
  const user = useUser();
  const [mustEnrol] = useState(Boolean(user?.mustEnrol));
  const codesRead = () => {
    setCodes(null);
    if (mustEnrol) window.location.assign('/admin/');
  };
  const close = () => setOpen(null);
  if (!list) return null;
  const hasTotp = list.factors.some((f) => f.kind === 'totp');
  // Without a factor, only the password proves it is the user: the first factor asks for it alone.
  const withCode = list.factors.length > 0;
  return (
    <Stack gap="sm">
      {list.required && list.factors.length === 0 && (
        <Alert color="orange" title={t('factors.required_title')}>
          {t('factors.required_text')}
        </Alert>
      )}
      {list.factors.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('factors.none')}
        </Text>
      ) : (
        <Table aria-label={t('factors.title')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('factors.name')}</Table.Th>
              <Table.Th>{t('factors.kind')}</Table.Th>
              <Table.Th>{t('factors.added')}</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>{t('shell.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.factors.map((factor) => (
              <Table.Tr key={factor.id}>
                <Table.Td>{factor.name}</Table.Td>
                <Table.Td>{factor.kind === 'totp' ? t('factors.kind_totp') : t('factors.kind_passkey')}</Table.Td>
                <Table.Td>{formatDate(factor.createdAt, i18n.language)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>
                  <Button
                    size="xs"
                    variant="subtle"
                    onClick={() => setOpen({ rename: factor })}
                    aria-label={t('factors.rename_named', { name: factor.name })}
                  >
                    {t('factors.rename')}
                  </Button>
                  <Button
                    size="xs"
                    variant="subtle"
                    color="red"
                    onClick={() => setOpen({ remove: factor })}
                    aria-label={t('factors.remove_named', { name: factor.name })}
                  >
                    {t('factors.remove')}
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {list.factors.length > 0 && <Text size="sm">{t('factors.codes_left', { count: list.recoveryCodesLeft })}</Text>}
      <Group gap="xs">
        {!hasTotp && (
          <Button variant="light" onClick={() => setOpen('totp')}>
            {t('factors.add_app')}
          </Button>
        )}
        <Button variant="light" onClick={() => setOpen('passkey')}>
          {t('factors.add_passkey')}
        </Button>
        {list.factors.length > 0 && (
          <Button variant="default" onClick={() => setOpen('codes')}>
            {t('factors.new_codes')}
          </Button>
        )}
      </Group>
      <ReauthDialog
        opened={open === 'totp'}
        onClose={close}
        title={t('factors.add_app')}
        intro={withCode ? t('factors.add_intro') : t('factors.first_intro')}
        submitLabel={t('factors.continue')}
        send={startTotp}
        onDone={(result) => setTotp(result.data)}
        withCode={withCode}
      />
      <TotpDialog start={totp} onClose={() => setTotp(null)} onCodes={setCodes} />
      <PasskeyDialog opened={open === 'passkey'} onClose={close} onCodes={setCodes} withCode={withCode} />
      <ReauthDialog
        opened={open === 'codes'}
        onClose={close}
        title={t('factors.new_codes')}
        intro={t('factors.new_codes_intro')}
        submitLabel={t('factors.new_codes')}
        send={newRecoveryCodes}
        onDone={(result) => setCodes(result.data.codes)}
      />
      <RenameFactorDialog factor={dialogFactor(open, 'rename')} onClose={close} />
      <ReauthDialog
        opened={typeof open === 'object' && open !== null && 'remove' in open}
        onClose={close}
        title={t('factors.remove_named', { name: dialogFactor(open, 'remove')?.name ?? '' })}
        intro={t('factors.remove_intro')}
        submitLabel={t('factors.remove')}
        send={(fields) => removeFactor(dialogFactor(open, 'remove')?.id ?? 0, fields)}
      />
      <RecoveryCodesDialog codes={codes} onClose={codesRead} />
    </Stack>
  );
}
