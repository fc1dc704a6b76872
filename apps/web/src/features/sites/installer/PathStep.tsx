import type { DatabaseView, Subdomain } from '@atalaya/contract';
import { Alert, Button, Checkbox, Group, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n.ts';
import type { WizardState } from './state.ts';

interface Props {
  state: WizardState;
  site: Subdomain | undefined;
  databases: DatabaseView[] | undefined;
  databaseLimit: number;
  password: string;
  onRegenerate: () => void;
  onPassword: (value: string) => void;
  onChange: (patch: Partial<WizardState>) => void;
  error: (input: string) => string | undefined;
}

/**
 * Step 2: the sub-folder and, for apps that need one, the database: an existing one, or a new one
 * while the service is below its limit (forced when it has none, docs/behaviour/service-area-dns.md#validation).
 */
export function PathStep({ state, site, databases, databaseLimit, password, onRegenerate, onPassword, onChange, error }: Props) {
  const { t } = useTranslation();
  const base = site ? `${site.ssl.enabled ? 'https' : 'http'}://${site.subdominio}.${site.referencePunycode}/` : '';
  const sub = state.subpath.replace(/^\/+|\/+$/g, '');
  const needsDb = state.app?.isBBDDApplication ?? false;
  const count = databases?.length ?? 0;
  const forced = needsDb && databases !== undefined && count === 0;
  const canCreate = forced || count < databaseLimit;
  const options = [
    ...(databases ?? []).map((d) => ({ value: String(d.id), label: d.bbdd })),
    ...(canCreate && !forced ? [{ value: 'new', label: t('sites.new_database') }] : []),
  ];
  return (
    <Stack gap="sm">
      <TextInput
        label={t('sites.subpath')}
        name="subpath"
        value={state.subpath}
        onChange={(e) => onChange({ subpath: e.currentTarget.value })}
        error={error('subpath')}
        leftSection="/"
      />
      {base && (
        <Text size="sm" c="dimmed">
          {t('sites.install_url', { url: `${base}${sub ? `${sub}/` : ''}` })}
        </Text>
      )}
      <Checkbox
        label={t('sites.overwrite')}
        description={t('sites.overwrite_hint')}
        checked={state.overwrite}
        onChange={(e) => onChange({ overwrite: e.currentTarget.checked })}
      />
      {needsDb && (
        <>
          {forced ? (
            <Alert color="blue">{t('sites.new_database_forced')}</Alert>
          ) : (
            <Select
              label={t('sites.database')}
              required
              data={options}
              value={state.database === null ? null : String(state.database)}
              onChange={(v) => onChange({ database: v === 'new' ? 'new' : v ? Number(v) : null })}
              error={error('mysqlID')}
              description={!canCreate ? t('sites.database_limit') : undefined}
            />
          )}
          {(forced || state.database === 'new') && (
            <Group align="end" wrap="nowrap">
              <PasswordInput
                label={t('sites.database_password')}
                required
                value={password}
                onChange={(e) => onPassword(e.currentTarget.value)}
                style={{ flex: 1 }}
                error={error('password')}
              />
              <Button variant="default" onClick={onRegenerate}>
                {t('sites.regenerate')}
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
