import { Button, FileButton, Group, Textarea } from '@mantine/core';
import { useState } from 'react';
import { FormDialog } from '../../../components/ui/FormDialog.tsx';
import { fieldError } from '../../../components/ui/fieldErrors.ts';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { applyImport, previewImport } from '../api/zoneTools.ts';
import { PlanView, type ZonePlan } from './PlanView.tsx';

interface Props {
  serviceId: string;
  onClose: () => void;
  onDone: () => unknown;
}

/**
 * Import a master file, pasted or uploaded: the first submit shows the preview (added, changed,
 * removed, refused lines), the second applies it; editing the text goes back to the preview step.
 */
export function ImportDialog({ serviceId, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const { check } = usePermissions(serviceId);
  const [text, setText] = useState('');
  const [plan, setPlan] = useState<ZonePlan | null>(null);
  const preview = useFormMutation({
    opened: true,
    permission: { check, call: endpoints.dns.importPreview },
    send: () => previewImport(serviceId, text),
    inputs: ['zone'],
    staysOpen: true,
    onDone: (result) => setPlan(result.data.plan),
  });
  const apply = useFormMutation({
    opened: true,
    permission: { check, call: endpoints.dns.import },
    send: () => applyImport(serviceId, text),
    inputs: ['zone'],
    onClose,
    onDone,
  });
  const edit = (value: string) => {
    setText(value);
    setPlan(null);
  };
  return (
    <FormDialog
      title={t('dns.import_title')}
      size="xl"
      noValidate
      opened
      onClose={onClose}
      mutation={plan ? apply : preview}
      submitLabel={t(plan ? 'dns.import_apply' : 'dns.import_preview')}
      submitDisabled={text.trim() === '' || (plan !== null && plan.added.length + plan.changed.length + plan.removed.length === 0)}
    >
      <Textarea
        label={t('dns.import_text')}
        description={t('dns.import_hint')}
        value={text}
        onChange={(e) => edit(e.currentTarget.value)}
        autosize
        minRows={6}
        maxRows={14}
        styles={{ input: { fontFamily: 'monospace' } }}
        error={fieldError(preview.error ?? apply.error, 'zone')}
      />
      <Group>
        <FileButton onChange={(file) => void file?.text().then(edit)} accept=".zone,.txt,.db,text/plain,text/dns">
          {(props) => (
            <Button variant="default" {...props}>
              {t('dns.import_upload')}
            </Button>
          )}
        </FileButton>
      </Group>
      {plan && <PlanView plan={plan} />}
    </FormDialog>
  );
}
