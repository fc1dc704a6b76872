import { LIMITS } from '@atalaya/contract';
import { Button, Card, Code, Group, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { fetchAuthCode, fetchTransferKey, regenerateAuthCode } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';

async function copyText(text: string) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // Clipboard API refused (permissions, insecure origin): the selection route still works.
    const area = document.createElement('textarea');
    area.value = text;
    document.body.append(area);
    area.select();
    document.execCommand('copy');
    area.remove();
  }
}

interface Props {
  id: number;
  kind: 'authcode' | 'transferkey';
  /** Whether the domain has one set: all a reader is told. */
  isSet: boolean;
  /** A writer of the auth code area: the code is a credential, revealed (and recorded) only to them (decision 051). */
  canReveal: boolean;
}

/** The auth code or the transfer key, whichever the domain has: whether it is set, and for a writer the code, fetched only when asked for. */
export function AuthCodeCard({ id, kind, isSet, canReveal }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const { check } = useDomainPermissions(id);
  const [confirming, setConfirming] = useState(false);
  const regenerate = useFormMutation({
    opened: confirming,
    permission: { check, call: endpoints.domain.authcodeRegenerate },
    send: () => regenerateAuthCode(id),
    // The new code replaces the one shown (or is shown, if none was asked for yet). None yet: the
    // registry has not answered, the change shows pending on the domain screen (decision 052).
    onDone: (result) => {
      if (!result.data.authCode) return;
      client.setQueryData(['domain-secret', id, kind], result.data.authCode);
      setAsked(true);
    },
    onClose: () => setConfirming(false),
    closeOnError: true,
  });
  const [note, setNote] = useState<string | null>(null);
  // A read on demand, not a write: loaded once asked for, kept while the card is shown, never
  // reloaded with the domain (its key is outside the domain's), forgotten when the card goes.
  const [asked, setAsked] = useState(false);
  const secret = useQuery({
    queryKey: ['domain-secret', id, kind],
    queryFn: () => (kind === 'authcode' ? fetchAuthCode(id) : fetchTransferKey(id)),
    enabled: asked,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
  useEffect(() => {
    if (!note) return;
    const timer = setTimeout(() => setNote(null), LIMITS.copyConfirmMs);
    return () => clearTimeout(timer);
  }, [note]);
  const label = t(kind === 'authcode' ? 'domain.authcode' : 'domain.transferkey');
  const copy = async () => {
    if (!secret.data) return setNote(t('main.no_copy'));
    await copyText(secret.data);
    setNote(t('domain.copied'));
  };
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm">
        {label}
      </Title>
      {!canReveal && <Text data-testid="auth-secret-state">{t(isSet ? 'domain.secret_set' : 'domain.secret_unset', { what: label })}</Text>}
      {canReveal && (
        <Group gap="sm">
          {secret.data ? (
            <Code fz="md" data-testid="auth-secret">
              {secret.data}
            </Code>
          ) : (
            // The label wraps: "Mostra Codi d'autorització (authcode)" was cut at 360 px.
            <Button
              variant="light"
              loading={secret.isFetching}
              onClick={() => (secret.isError ? void secret.refetch() : setAsked(true))}
              h="auto"
              mih={36}
              py={6}
              maw="100%"
              styles={{ label: { whiteSpace: 'normal' } }}
            >
              {t('domain.show_secret', { what: label })}
            </Button>
          )}
          <Button variant="default" onClick={copy}>
            {t('domain.copy')}
          </Button>
          {kind === 'authcode' && (
            <Button variant="subtle" onClick={() => setConfirming(true)}>
              {t('domain.regenerate')}
            </Button>
          )}
          {note && (
            <Text size="sm" c="dimmed" role="status">
              {note}
            </Text>
          )}
        </Group>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t('domain.regenerate')}
        message={t('domain.regenerate_confirm')}
        confirmLabel={t('domain.regenerate')}
        loading={regenerate.isPending}
        onConfirm={() => regenerate.mutate()}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}
