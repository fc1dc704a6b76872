import { EMAIL, type MailAlias } from '@atalaya/contract';
import { ActionIcon, Button, Group, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { nameSuffix } from '../../../components/hosting/nameSuffix.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { aliasesKey, createAlias, saveAlias } from '../api/mail.ts';

interface Props {
  id: number;
  reference: string;
  /** null: create; an alias: edit its targets. */
  alias: MailAlias | null;
  opened: boolean;
  onClose: () => void;
}

/** Alias: a name (may be empty: catch-all) and one or more target e-mails, each checked as typed and on blur. */
export function AliasDialog({ id, reference, alias, opened, onClose }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [targets, setTargets] = useState<string[]>(['']);
  const [touched, setTouched] = useState<boolean[]>([false]);
  const { check } = usePermissions(id);
  const joined = () =>
    targets
      .map((s) => s.trim())
      .filter(Boolean)
      .join(',');
  const mutation = useFormMutation({
    opened,
    permission: { check, call: alias ? endpoints.service.aliasSave : endpoints.service.aliasCreate },
    send: () => (alias ? saveAlias(id, alias.id, joined()) : createAlias(id, name, joined())),
    inputs: ['name', 'target'],
    onClose,
    onDone: () => client.invalidateQueries({ queryKey: aliasesKey(id) }),
  });
  useEffect(() => {
    if (!opened) return;
    setName(alias?.alias ?? '');
    const initial = alias?.targets.length ? alias.targets : [''];
    setTargets(initial);
    setTouched(initial.map(() => false));
  }, [opened, alias]);
  const invalid = (i: number) => touched[i] && targets[i].trim() !== '' && !EMAIL.test(targets[i].trim());
  const valid = targets.some((s) => s.trim()) && targets.every((s) => !s.trim() || EMAIL.test(s.trim()));
  const update = (i: number, value: string) => {
    setTargets((list) => list.map((v, j) => (j === i ? value : v)));
    setTouched((list) => list.map((v, j) => (j === i ? true : v)));
  };
  const serverTarget = fieldError(mutation.error, 'target');

  return (
    <FormDialog
      title={t(alias ? 'hosting.alias_edit' : 'hosting.alias_create')}
      opened={opened}
      onClose={onClose}
      mutation={mutation}
      beforeSubmit={() => {
        setTouched(targets.map(() => true));
        return valid;
      }}
      submitLabel={t(alias ? 'shell.save' : 'hosting.create')}
    >
      <TextInput
        label={t('hosting.alias_name')}
        name="name"
        value={name}
        disabled={Boolean(alias)}
        onChange={(e) => setName(e.currentTarget.value)}
        {...nameSuffix(`@${reference}`)}
        description={t('hosting.alias_catch_all')}
        error={fieldError(mutation.error, 'name')}
      />
      <Text size="sm" fw={500}>
        {t('hosting.targets')}
      </Text>
      {targets.map((value, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions in the list being edited
        <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
          <TextInput
            style={{ flex: 1 }}
            aria-label={t('hosting.target_n', { n: i + 1 })}
            type="email"
            required={i === 0}
            value={value}
            onChange={(e) => update(i, e.currentTarget.value)}
            onBlur={() => setTouched((list) => list.map((v, j) => (j === i ? true : v)))}
            error={invalid(i) ? t('validation.email') : i === 0 ? serverTarget : undefined}
          />
          {i > 0 && (
            <ActionIcon
              variant="subtle"
              color="red"
              mt={6}
              aria-label={t('hosting.target_remove', { n: i + 1 })}
              onClick={() => {
                setTargets((list) => list.filter((_, j) => j !== i));
                setTouched((list) => list.filter((_, j) => j !== i));
              }}
            >
              ✕
            </ActionIcon>
          )}
        </Group>
      ))}
      <Button
        variant="subtle"
        size="xs"
        onClick={() => {
          setTargets((list) => [...list, '']);
          setTouched((list) => [...list, false]);
        }}
      >
        {t('hosting.target_add')}
      </Button>
    </FormDialog>
  );
}
