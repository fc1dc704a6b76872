import { Select } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { applyTemplate, previewTemplate, templatesQuery } from '../api/zoneTools.ts';
import { PlanView, type ZonePlan } from './PlanView.tsx';

interface Props {
  serviceId: string;
  onClose: () => void;
  onDone: () => unknown;
}

/** The provider's named record sets: pick one, see its preview (as an import's), apply it. */
export function TemplateDialog({ serviceId, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const { check } = usePermissions(serviceId);
  const templates = useQuery(templatesQuery(serviceId));
  const [name, setName] = useState<string | null>(null);
  const [plan, setPlan] = useState<ZonePlan | null>(null);
  const preview = useFormMutation({
    opened: true,
    permission: { check, call: endpoints.dns.templatePreview },
    send: () => previewTemplate(serviceId, name ?? ''),
    staysOpen: true,
    onDone: (result) => setPlan(result.data.plan),
  });
  const apply = useFormMutation({
    opened: true,
    permission: { check, call: endpoints.dns.templateApply },
    send: () => applyTemplate(serviceId, name ?? ''),
    onClose,
    onDone,
  });
  const list = templates.data ?? [];
  return (
    <FormDialog
      title={t('dns.templates_title')}
      size="xl"
      opened
      onClose={onClose}
      mutation={plan ? apply : preview}
      submitLabel={t(plan ? 'dns.template_apply' : 'dns.import_preview')}
      submitDisabled={name === null}
    >
      <Select
        label={t('dns.template')}
        placeholder={list.length === 0 && templates.isSuccess ? t('dns.templates_none') : undefined}
        data={list.map((tpl) => ({ value: tpl.name, label: tpl.label }))}
        value={name}
        onChange={(value) => {
          setName(value);
          setPlan(null);
        }}
        disabled={list.length === 0}
      />
      {plan && <PlanView plan={plan} />}
    </FormDialog>
  );
}
