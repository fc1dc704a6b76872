import { CAA_TAGS, type DnsType, SRV_PROTOCOLS, SRV_SERVICES } from '@atalaya/contract';
import { Group, Select, Textarea, TextInput } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n.ts';
import { type DnsForm, OTHER_SERVICE, valueErrorPart } from '../form.ts';
import { valuePlaceholder } from '../labels.ts';

interface Props {
  form: DnsForm;
  set: (patch: Partial<DnsForm>) => void;
  /** The server's message for the value field, if any. */
  error?: string;
}

/** The value of a record: one input, or the SRV and CAA parts (docs/behaviour/service-area-dns.md#validation). */
export function ValueFields({ form, set, error }: Props) {
  const { t } = useTranslation();
  const type: DnsType = form.type;
  const part = valueErrorPart(form);
  const errorOf = (name: ReturnType<typeof valueErrorPart>) => (part === name ? error : undefined);
  if (type === 'SRV') {
    return (
      <Group grow align="flex-start">
        <TextInput
          label={t('dns.srv_weight')}
          value={form.weight}
          onChange={(e) => set({ weight: e.currentTarget.value })}
          inputMode="numeric"
          required
          error={errorOf('weight')}
        />
        <TextInput
          label={t('dns.srv_port')}
          value={form.port}
          onChange={(e) => set({ port: e.currentTarget.value })}
          inputMode="numeric"
          required
          error={errorOf('port')}
        />
        <TextInput
          label={t('dns.srv_target')}
          placeholder={t('dns.ph_host')}
          value={form.target}
          onChange={(e) => set({ target: e.currentTarget.value })}
          error={errorOf('target')}
          required
        />
      </Group>
    );
  }
  if (type === 'CAA') {
    return (
      <Group grow align="flex-start">
        <TextInput
          label={t('dns.caa_flag_label')}
          value={form.caaFlag}
          onChange={(e) => set({ caaFlag: e.currentTarget.value })}
          inputMode="numeric"
          required
          error={errorOf('caaFlag')}
        />
        <Select
          label={t('dns.caa_tag_label')}
          data={CAA_TAGS.map((tag) => ({ value: tag, label: tag === 'iodef' ? t('dns.caa_url') : tag }))}
          value={form.caaTag}
          onChange={(v) => set({ caaTag: v ?? 'issue' })}
          allowDeselect={false}
        />
        <TextInput
          label={form.caaTag === 'iodef' ? t('dns.caa_url') : t('dns.caa_entity')}
          placeholder={form.caaTag === 'iodef' ? 'https://' : t('dns.ph_caa')}
          value={form.caaText}
          onChange={(e) => set({ caaText: e.currentTarget.value })}
          error={errorOf('caaText')}
          required
        />
      </Group>
    );
  }
  const Input = type === 'TXT' ? Textarea : TextInput;
  return (
    <Input
      label={t('dns.value')}
      placeholder={valuePlaceholder(t, type)}
      value={form.value}
      onChange={(e) => set({ value: e.currentTarget.value })}
      error={error}
      required
      {...(type === 'TXT' ? { autosize: true, minRows: 5 } : {})}
    />
  );
}

/** The SRV name parts: service (from the list or other), protocol; the sub-name is the zona field. */
export function SrvNameFields({ form, set, error }: Props) {
  const { t } = useTranslation();
  return (
    <Group grow align="flex-start">
      <Select
        label={t('dns.srv_service')}
        data={[...SRV_SERVICES.map((s) => ({ value: s, label: s })), { value: OTHER_SERVICE, label: t('dns.srv_other') }]}
        value={form.srvService}
        onChange={(v) => set({ srvService: v ?? SRV_SERVICES[0] })}
        allowDeselect={false}
        searchable
      />
      {form.srvService === OTHER_SERVICE && (
        <TextInput
          label={t('dns.srv_service_name')}
          placeholder="_xmpp"
          value={form.srvOther}
          onChange={(e) => set({ srvOther: e.currentTarget.value })}
          required
          error={error}
        />
      )}
      <Select
        label={t('dns.srv_protocol')}
        data={[...SRV_PROTOCOLS]}
        value={form.srvProtocol}
        onChange={(v) => set({ srvProtocol: v ?? SRV_PROTOCOLS[0] })}
        allowDeselect={false}
      />
    </Group>
  );
}
