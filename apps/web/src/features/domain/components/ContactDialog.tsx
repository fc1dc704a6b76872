import { CONTACT_TYPES, type ContactType, type DomainAnswer, POSTAL_CODE_MAX } from '@atalaya/contract';
import { Alert, Autocomplete, Checkbox, Group, Radio, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { bindText, fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { seesCall } from '../../../lib/permissions.ts';
import { contactsCall, domainKey, saveContacts, saveOwner } from '../api/domain.ts';
import { useDomainPermissions } from '../useDomainPermissions.ts';
import { type ContactForm, fromContact, toFields } from './contactForm.ts';
import { useAddressLookup } from './useAddressLookup.ts';

interface Props {
  data: DomainAnswer;
  type: ContactType | null;
  onClose: () => void;
}

/** Edits one contact; may start from a copy of another (the registrant only with owner-contacts visibility). */
export function ContactDialog({ data, type, onClose }: Props) {
  const { t } = useTranslation();
  const opened = type !== null;
  const role = type ?? 'admin';
  const id = data.domain.id;
  const [form, setForm] = useState<ContactForm>(fromContact(null));
  const lookup = useAddressLookup(opened, form.country, form.state, form.city, form.postalCode);
  const { check } = useDomainPermissions(id);
  // A change of owner: the server asks for the consent under `confirmOwnerChange`, telling of the transfer lock.
  const [owner, setOwner] = useState({ confirm: false, optOut: false });
  const submit = useFormMutation({
    opened,
    permission: { check, call: contactsCall(role) },
    send: () => {
      const fields = toFields(form, role);
      return role === 'registrant' ? saveOwner(id, fields, owner) : saveContacts(id, fields as Parameters<typeof saveContacts>[1]);
    },
    reload: [domainKey(id)],
    onClose,
  });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a fresh form each time it opens
  useEffect(() => {
    if (!opened) return;
    setForm(fromContact(data[role]));
    setOwner({ confirm: false, optOut: false });
    submit.reset();
  }, [opened, role]);
  const set = (key: keyof ContactForm) => (value: string | null) => setForm((f) => ({ ...f, [key]: value ?? '' }));
  const text = bindText(form, (key, value) => set(key)(value), submit.error);
  const sources = CONTACT_TYPES.filter(
    (c) => c !== role && data[c] && (c !== 'registrant' || seesCall(data.domain.permissions, contactsCall('registrant'))),
  );
  const countries = useMemo(
    () => Object.entries(lookup.data?.country ?? {}).map(([value, label]) => ({ value, label })),
    [lookup.data?.country],
  );
  const states = lookup.data?.states.map((s) => s.name) ?? [];
  const cities = lookup.data?.cities.map((c) => c.name) ?? [];
  const org = form.isOrg === '1';
  const ownerChange = fieldError(submit.error, 'confirmOwnerChange');
  const asked = role === 'registrant' && (ownerChange !== undefined || owner.confirm);

  return (
    <FormDialog
      title={t('domain.contact_edit', { type: t(`domain.contact_${role}`) })}
      size="xl"
      noValidate
      opened={opened}
      onClose={onClose}
      mutation={submit}
    >
      {sources.length > 0 && (
        <Select
          label={t('domain.copy_from')}
          placeholder={t('domain.copy_from_placeholder')}
          data={sources.map((c) => ({ value: c, label: t(`domain.contact_${c}`) }))}
          value={null}
          onChange={(source) => source && setForm((f) => ({ ...fromContact(data[source as ContactType]), mode: f.mode }))}
        />
      )}
      <Radio.Group
        name="isOrg"
        label={t('domain.contact_kind')}
        value={form.isOrg}
        onChange={set('isOrg')}
        error={fieldError(submit.error, 'isOrg')}
      >
        <Group mt="xs">
          <Radio value="0" label={t('domain.individual')} />
          <Radio value="1" label={t('domain.organization')} />
        </Group>
      </Radio.Group>
      {org && <TextInput label={t('domain.org_name')} required {...text('orgName')} />}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t('domain.first_name')} required {...text('firstName')} />
        <TextInput label={t('domain.last_name')} required {...text('lastName')} />
        <TextInput label={t(org ? 'domain.vat' : 'domain.nif')} required {...text('identNumber')} />
        <TextInput label={t('domain.email')} type="email" required {...text('email')} />
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput w={90} label={t('domain.phone_prefix')} leftSection="+" required {...text('prefix')} error={undefined} />
          <TextInput
            style={{ flex: 1 }}
            label={t('domain.phone')}
            inputMode="tel"
            required
            {...text('number')}
            error={fieldError(submit.error, 'phone')}
          />
        </Group>
        <Select
          label={t('domain.country')}
          required
          searchable
          data={countries}
          value={form.country || null}
          onChange={(v) => setForm((f) => ({ ...f, country: v ?? '', state: '', city: '' }))}
          error={fieldError(submit.error, 'country')}
        />
        <Autocomplete
          label={t('domain.state')}
          required
          data={states}
          value={form.state}
          onChange={set('state')}
          error={fieldError(submit.error, 'state')}
        />
        <Autocomplete
          label={t('domain.city')}
          required
          data={cities}
          value={form.city}
          onChange={set('city')}
          error={fieldError(submit.error, 'city')}
        />
        <TextInput label={t('domain.postal_code')} required maxLength={POSTAL_CODE_MAX} {...text('postalCode')} />
        <TextInput label={t('domain.address')} required {...text('address')} />
      </SimpleGrid>
      {asked && (
        <Alert color="orange" data-testid="owner-change">
          <Stack gap="xs">
            {ownerChange && <span role="alert">{ownerChange}</span>}
            <Checkbox
              name="confirmOwnerChange"
              label={t('domain.owner_change_confirm_label')}
              checked={owner.confirm}
              onChange={(e) => {
                const confirm = e.currentTarget.checked;
                setOwner((o) => ({ ...o, confirm }));
              }}
            />
            <Checkbox
              name="transferLockOptOut"
              label={t('domain.owner_change_opt_out_label')}
              checked={owner.optOut}
              onChange={(e) => {
                const optOut = e.currentTarget.checked;
                setOwner((o) => ({ ...o, optOut }));
              }}
            />
          </Stack>
        </Alert>
      )}
      {role !== 'registrant' && (
        <Radio.Group name="mode" label={t('domain.apply_to')} value={form.mode} onChange={set('mode')}>
          <Stack gap="xs" mt="xs">
            <Radio value="only_contact" label={t('domain.only_contact')} />
            <Radio value="all_contacts" label={t('domain.all_contacts')} />
          </Stack>
        </Radio.Group>
      )}
    </FormDialog>
  );
}
