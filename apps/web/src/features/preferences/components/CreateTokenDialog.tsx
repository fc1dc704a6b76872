import { AREAS, type Area, levelsText, lowerLevel, type PermissionMap, TOKEN_LIMITS } from '@atalaya/contract';
import { Button, Group, MultiSelect, PasswordInput, Text, Textarea, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { bindText, fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { useItemChoices } from '../../../lib/useItemChoices.ts';
import { createToken, type TokenFields, tokensQuery } from '../api/tokens.ts';
import { ScopePicker } from './ScopePicker.tsx';

const FIELDS = ['name', 'password', 'code', 'scope', 'items', 'expires', 'cidrs'] as const;
const EMPTY = { name: '', password: '', code: '', items: [] as string[], expires: '', cidrs: '' };

/** Name, scope, items, expiry and address ranges of a new token, confirmed with the current password or a second-factor code. */
export function CreateTokenDialog({
  opened,
  onClose,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  onCreated: (token: string) => void;
}) {
  const { t } = useTranslation();
  const [fields, setFields] = useState(EMPTY);
  const [scope, setScope] = useState<PermissionMap>({});
  const ceiling = useQuery({ ...tokensQuery, enabled: opened }).data?.ceiling;
  const [itemSearch, setItemSearch] = useState('');
  const items = useItemChoices(itemSearch, opened);
  const payload = (): TokenFields => ({ ...fields, scope: levelsText(scope), items: fields.items.map(Number) });
  const create = useFormMutation({
    opened,
    send: () => createToken(payload()),
    inputs: FIELDS,
    onClose,
    onDone: (result) => onCreated(result.data.token),
    reload: [tokensQuery.queryKey],
  });
  useEffect(() => {
    if (opened) {
      setFields(EMPTY);
      setScope({});
    }
  }, [opened]);
  const text = bindText(fields, (key, value) => setFields({ ...fields, [key]: value }), create.error);
  // Read on every area the user can read: the usual start for a reporting script.
  const allRead = () => setScope(Object.fromEntries(AREAS.map((a: Area) => [a, lowerLevel('read', ceiling?.[a])])));
  return (
    <FormDialog
      title={t('tokens.create')}
      noValidate
      size="lg"
      opened={opened}
      onClose={onClose}
      mutation={create}
      submitLabel={t('tokens.create')}
      submitDisabled={!fields.name || (!fields.password && !fields.code.trim())}
    >
      <TextInput {...text('name')} label={t('tokens.name')} required maxLength={TOKEN_LIMITS.name} data-autofocus />
      <Group justify="flex-end">
        <Button variant="subtle" size="xs" onClick={allRead}>
          {t('tokens.all_read')}
        </Button>
      </Group>
      <ScopePicker value={scope} ceiling={ceiling} onChange={setScope} error={fieldError(create.error, 'scope')} />
      <MultiSelect
        label={t('tokens.items')}
        description={t('tokens.items_hint')}
        data={items}
        onSearchChange={setItemSearch}
        value={fields.items}
        onChange={(value) => setFields({ ...fields, items: value })}
        error={fieldError(create.error, 'items')}
        searchable
        clearable
      />
      <TextInput {...text('expires')} type="date" label={t('tokens.expires')} description={t('tokens.expires_hint')} />
      <Textarea {...text('cidrs')} label={t('tokens.cidrs')} description={t('tokens.cidrs_hint')} autosize minRows={2} />
      <PasswordInput
        {...text('password')}
        label={t('shell.current_password')}
        description={t('tokens.password_hint')}
        required={false}
        autoComplete="current-password"
      />
      <TextInput {...text('code')} required={false} label={t('factors.or_code')} autoComplete="one-time-code" />
      <Text size="sm" c="dimmed">
        {t('tokens.revoked_when')}
      </Text>
    </FormDialog>
  );
}
