import type { Subdomain } from '@atalaya/contract';
import { Switch, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { nameSuffix } from '../../../components/hosting/nameSuffix.tsx';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { formatDate } from '../../../lib/format.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { createSite, type SiteForm, saveSite, sitesKey } from '../api/sites.ts';
import { FreeCertificate } from './FreeCertificate.tsx';
import { PemField } from './PemField.tsx';

const FIELDS = ['subDomain', 'folder', 'SSLActive', 'cert', 'certkey', 'certchain'];
const empty: SiteForm = { subDomain: '', folder: '', ssl: false, cert: '', certkey: '', certchain: '' };

interface Props {
  serviceId: string;
  reference: string;
  /** null: create; a site: edit it. */
  site: Subdomain | null;
  opened: boolean;
  onClose: () => void;
}

/**
 * Create or edit a site: name (create only), folder, and the SSL switch revealing the free
 * certificate (an existing site) and the fields of an uploaded one.
 */
export function SiteDialog({ serviceId, reference, site, opened, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const client = useQueryClient();
  const [form, setForm] = useState<SiteForm>(empty);
  useEffect(() => {
    if (opened) setForm(site ? { ...empty, subDomain: site.subdominio, folder: `/${site.directorio}`, ssl: site.ssl.enabled } : empty);
  }, [opened, site]);
  const { check } = usePermissions(serviceId);
  const mutation = useFormMutation({
    opened,
    permission: { check, call: site ? endpoints.sites.save : endpoints.sites.create },
    send: () => (site ? saveSite(serviceId, site.id, form) : createSite(serviceId, form)),
    inputs: FIELDS,
    onClose,
    onDone: () => client.invalidateQueries({ queryKey: sitesKey(serviceId) }),
  });
  const set = <K extends keyof SiteForm>(key: K, value: SiteForm[K]) => setForm((f) => ({ ...f, [key]: value }));
  const err = (input: string) => fieldError(mutation.error, input);
  const info = site?.ssl.info;

  return (
    <FormDialog
      title={site ? t('sites.edit') : t('sites.create')}
      size="lg"
      opened={opened}
      onClose={onClose}
      mutation={mutation}
      submitLabel={site ? t('shell.save') : t('sites.create')}
    >
      <TextInput
        label={t('sites.name')}
        name="subDomain"
        required
        disabled={site !== null}
        value={form.subDomain}
        onChange={(e) => set('subDomain', e.currentTarget.value)}
        {...nameSuffix(`.${reference}`)}
        error={err('subDomain')}
      />
      <TextInput
        label={t('sites.folder')}
        name="folder"
        required
        description={t('sites.folder_help')}
        value={form.folder}
        onChange={(e) => set('folder', e.currentTarget.value)}
        error={err('folder')}
      />
      <Switch
        label={t('sites.ssl_switch')}
        name="SSLActive"
        checked={form.ssl}
        onChange={(e) => set('ssl', e.currentTarget.checked)}
        error={err('SSLActive')}
      />
      {form.ssl && (
        <>
          {site && <FreeCertificate serviceId={serviceId} reference={reference} site={site} />}
          {info && (
            <Text size="sm" c="dimmed">
              {t('sites.cert_info', { subject: info.subject, date: formatDate(info.validTo, i18n.language) })}
            </Text>
          )}
          <PemField
            name="cert"
            label={t('sites.cert')}
            value={form.cert}
            onChange={(v) => set('cert', v)}
            error={err('cert')}
            description={site?.ssl.cert.cert ? t('sites.cert_kept') : undefined}
          />
          <PemField
            name="certkey"
            label={t('sites.certkey')}
            value={form.certkey}
            onChange={(v) => set('certkey', v)}
            error={err('certkey')}
            description={site?.ssl.hasKey ? t('sites.key_kept') : undefined}
          />
          <PemField
            name="certchain"
            label={t('sites.certchain')}
            value={form.certchain}
            onChange={(v) => set('certchain', v)}
            error={err('certchain')}
          />
        </>
      )}
    </FormDialog>
  );
}
