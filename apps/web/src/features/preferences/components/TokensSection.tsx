import { type ApiToken, AREAS } from '@atalaya/contract';
import { Button, Stack, Table, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { formatDate, formatDateTime } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { revokeToken, tokensQuery } from '../api/tokens.ts';
import { CreateTokenDialog } from './CreateTokenDialog.tsx';
import { TokenCreatedDialog } from './TokenCreatedDialog.tsx';

/** The areas above disabled, with their level: what the token may do (its user's level still caps it). */
function ScopeText({ token }: { token: ApiToken }) {
  const { t } = useTranslation();
  const parts = AREAS.filter((a) => token.scope[a] !== 'disabled').map(
    (a) => `${t(`tokens.area_${a}`)}: ${t(`tokens.level_${token.scope[a]}`)}`,
  );
  return <Text size="xs">{parts.join(' · ')}</Text>;
}

/** Preferences' API tokens: the list (never the secrets), create, revoke (docs/behaviour/shell-session-domains.md#api-tokens). */
export function TokensSection() {
  const { t, i18n } = useTranslation();
  const tokens = useQuery(tokensQuery).data?.tokens;
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [revoking, setRevoking] = useState<ApiToken | null>(null);
  const revoke = useFormMutation({
    opened: revoking !== null,
    send: () => revokeToken(revoking!.id),
    onClose: () => setRevoking(null),
    reload: [tokensQuery.queryKey],
    closeOnError: true,
  });
  const language = i18n.language;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {t('tokens.intro')}
      </Text>
      <Text size="sm" c="dimmed">
        {t('tokens.revoked_when')}
      </Text>
      <div>
        <Button variant="light" onClick={() => setCreating(true)}>
          {t('tokens.create')}
        </Button>
      </div>
      {tokens && tokens.length === 0 && <Text size="sm">{t('tokens.none')}</Text>}
      {tokens && tokens.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table aria-label={t('tokens.title')} verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('tokens.name')}</Table.Th>
                <Table.Th>{t('tokens.scope')}</Table.Th>
                <Table.Th>{t('tokens.items')}</Table.Th>
                <Table.Th>{t('tokens.expires')}</Table.Th>
                <Table.Th>{t('tokens.last_use')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {tokens.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {token.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {token.cidrs.join(', ') || t('tokens.any_address')}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <ScopeText token={token} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{token.items.map((i) => i.reference).join(', ') || t('tokens.items_all')}</Text>
                  </Table.Td>
                  <Table.Td>
                    {/* Stored as the first second it no longer works: the day shown is the last one it does. */}
                    <Text size="sm">{token.expiresAt === null ? t('tokens.never') : formatDate(token.expiresAt - 86_400, language)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{token.lastUsedAt === null ? t('tokens.not_used') : formatDateTime(token.lastUsedAt, language)}</Text>
                    {token.lastIp && (
                      <Text size="xs" c="dimmed">
                        {token.lastIp}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Button size="xs" color="red" variant="subtle" onClick={() => setRevoking(token)}>
                      {t('tokens.revoke')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <CreateTokenDialog opened={creating} onClose={() => setCreating(false)} onCreated={setCreated} />
      <TokenCreatedDialog token={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        opened={revoking !== null}
        title={t('tokens.revoke_title')}
        message={t('tokens.revoke_confirm', { name: revoking?.name ?? '' })}
        confirmLabel={t('tokens.revoke')}
        danger
        loading={revoke.isPending}
        onConfirm={() => revoke.mutate()}
        onClose={() => setRevoking(null)}
      />
    </Stack>
  );
}
