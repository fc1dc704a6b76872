import { Anchor, Checkbox, Group, Stack, Text } from '@mantine/core';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fetchData } from '../../lib/api.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { Dialog } from './Dialog.tsx';

/** GET /legal/privacypolicy/ (docs/behaviour/shell-session-domains.md#contact-page): title, text and an optional link to the full policy. */

const privacyPolicyQuery = (language: string) =>
  queryOptions({
    queryKey: ['privacypolicy', language],
    queryFn: () => fetchData(endpoints.account.privacyPolicy, {}),
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The privacy acceptance box of the contact forms, with the server's policy one click away. */
export function PrivacyCheckbox({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const policy = useQuery(privacyPolicyQuery(i18n.language));
  return (
    <>
      <Group gap={6} wrap="nowrap" align="flex-start">
        <Checkbox
          name="privacy"
          checked={checked}
          onChange={(event) => onChange(event.currentTarget.checked)}
          label={t('shell.privacy_accept')}
        />
        <Anchor component="button" type="button" size="sm" onClick={() => setOpen(true)}>
          {t('shell.privacy_read')}
        </Anchor>
      </Group>
      <Dialog opened={open} onClose={() => setOpen(false)} title={policy.data?.title ?? t('shell.privacy_title')} size="lg">
        {policy.data ? (
          <Stack gap="sm">
            <Text style={{ whiteSpace: 'pre-line' }}>{policy.data.text}</Text>
            {policy.data.redirecTo && (
              <Anchor href={policy.data.redirecTo} target="_blank" rel="noopener noreferrer">
                {t('shell.privacy_full')}
              </Anchor>
            )}
          </Stack>
        ) : (
          <Text c="dimmed">{policy.isError ? t('shell.error') : t('main.loading')}</Text>
        )}
      </Dialog>
    </>
  );
}
