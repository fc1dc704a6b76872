import type { DnsRecord } from '@atalaya/contract';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { useFormMutation } from '../../../components/ui/useFormMutation.ts';
import { endpoints } from '../../../lib/endpoints.ts';
import { useTranslation } from '../../../lib/i18n.ts';
import { usePermissions } from '../../../lib/permissions.ts';
import { deleteAllRecords, deleteRecord, restoreDefaults } from '../api/dns.ts';

export type ZoneAction = 'restore' | 'deleteAll';

interface Props {
  serviceId: string;
  action: ZoneAction | 'delete';
  record?: DnsRecord;
  onClose: () => void;
  onDone: () => unknown;
}

/** Delete one record, restore defaults or delete all, behind a confirmation with a loading flag (docs/behaviour/service-area-dns.md#states). */
export function ZoneConfirm({ serviceId, action, record, onClose, onDone }: Props) {
  const { t } = useTranslation();
  const { check } = usePermissions(serviceId);
  const mutation = useFormMutation({
    opened: true,
    permission: {
      check,
      call: action === 'delete' ? endpoints.dns.delete : action === 'restore' ? endpoints.dns.restore : endpoints.dns.deleteAll,
    },
    send: () =>
      action === 'delete'
        ? deleteRecord(serviceId, record!.id)
        : action === 'restore'
          ? restoreDefaults(serviceId)
          : deleteAllRecords(serviceId),
    onDone,
    onClose,
    closeOnError: true,
  });
  const texts = {
    delete: {
      title: t('dns.delete_title'),
      message: t('dns.delete_confirm', { type: record?.type, name: record?.reference }),
      confirm: t('dns.delete_action'),
    },
    restore: { title: t('dns.restore'), message: t('dns.restore_confirm'), confirm: t('dns.restore') },
    deleteAll: { title: t('dns.delete_all'), message: t('dns.delete_all_confirm'), confirm: t('dns.delete_all') },
  }[action];
  return (
    <ConfirmDialog
      opened
      title={texts.title}
      message={texts.message}
      confirmLabel={texts.confirm}
      danger={action !== 'restore'}
      loading={mutation.isPending}
      onConfirm={() => mutation.mutate()}
      onClose={onClose}
    />
  );
}
