import { REDIRECT_TYPES, type Redirection, SITES_LIMITS } from '@atalaya/contract';
import { Select, Text, Textarea, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { bindText, fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { createRedirection, type RedirectionForm, saveRedirection, sitesKey } from '../api/sites.ts';

const FIELDS = ['subDomain', 'recurso', 'urlRedir', 'redirType', 'iframeTitle', 'iframeDescription', 'iframeKeywords'];

const EMPTY: RedirectionForm = {
  subDomain: '',
  recurso: '/',
  urlRedir: '',
  redirType: '301',
  iframeTitle: '',
  iframeDescription: '',
  iframeKeywords: '',
};

interface Props {
  serviceId: string;
  reference: string;
  /** The site names the redirection may hang on ('' is the bare domain). */
  hosts: string[];
  /** Create on this host, or edit this redirection. */
  target: { host: string } | { redirection: Redirection } | null;
  onClose: () => void;
}

/** Create or edit a redirection: 301, 302 or frame, the frame revealing title, description and keywords. */
export function RedirectionDialog({ serviceId, reference, hosts, target, onClose }: Props) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const editing = target && 'redirection' in target ? target.redirection : null;
  const [form, setForm] = useState<RedirectionForm>(EMPTY);
  useEffect(() => {
    if (!target) return;
    if (editing) {
      setForm({
        subDomain: editing.subdominio,
        recurso: editing.recurso,
        urlRedir: editing.url,
        redirType: editing.redirType,
        iframeTitle: editing.iframeTitle,
        iframeDescription: editing.iframeDescription,
        iframeKeywords: editing.iframeKeywords,
      });
    } else if ('host' in target) {
      setForm({ ...EMPTY, subDomain: target.host });
    }
  }, [target, editing]);
  const { check } = usePermissions(serviceId);
  const mutation = useFormMutation({
    opened: target !== null,
    permission: { check, call: editing ? endpoints.sites.redirectionSave : endpoints.sites.redirectionCreate },
    send: () => (editing ? saveRedirection(serviceId, editing.id, form) : createRedirection(serviceId, form)),
    inputs: FIELDS,
    onClose,
    onDone: () => client.invalidateQueries({ queryKey: sitesKey(serviceId) }),
  });
  const set = <K extends keyof RedirectionForm>(key: K, value: RedirectionForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const err = (input: string) => fieldError(mutation.error, input);
  const text = bindText(form, (key, value) => setForm((f) => ({ ...f, [key]: value })), mutation.error);
  const hostLabel = (host: string) => (host ? `${host}.${reference}` : reference);

  return (
    <FormDialog
      title={editing ? t('sites.redirection_edit') : t('sites.redirection_create')}
      size="lg"
      opened={target !== null}
      onClose={onClose}
      mutation={mutation}
      submitLabel={editing ? t('shell.save') : t('sites.redirection_create')}
    >
      <Select
        label={t('sites.redir_site')}
        data={hosts.map((h) => ({ value: h, label: hostLabel(h) }))}
        value={form.subDomain}
        onChange={(v) => set('subDomain', v ?? '')}
        disabled={editing !== null}
        allowDeselect={false}
        error={err('subDomain')}
      />
      <TextInput label={t('sites.redir_origin')} {...text('recurso')} disabled={editing !== null} />
      <TextInput label={t('sites.redir_target')} {...text('urlRedir')} type="url" required placeholder="https://" />
      <Select
        label={t('sites.redir_type')}
        name="redirType"
        data={REDIRECT_TYPES.map((type) => ({ value: type, label: t(`sites.redir_type_${type}`) }))}
        value={form.redirType}
        onChange={(v) => v && set('redirType', v as RedirectionForm['redirType'])}
        allowDeselect={false}
        error={err('redirType')}
      />
      {form.redirType === 'frame' && (
        <>
          <Text size="sm" c="dimmed">
            {t('sites.frame_note')}
          </Text>
          <TextInput label={t('sites.iframe_title')} {...text('iframeTitle')} maxLength={SITES_LIMITS.iframeTitleMax} />
          <Textarea label={t('sites.iframe_description')} {...text('iframeDescription')} maxLength={SITES_LIMITS.iframeDescriptionMax} />
          <TextInput label={t('sites.iframe_keywords')} {...text('iframeKeywords')} maxLength={SITES_LIMITS.iframeKeywordsMax} />
        </>
      )}
    </FormDialog>
  );
}
