import type { DnsRecord } from '@atalaya/contract';
import { useMutation } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/ui/ConfirmDialog.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { notifyError, notifySuccess } from '../../../lib/notify.ts';
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
  const mutation = useMutation({
    mutationFn: () =>
      action === 'delete'
        ? deleteRecord(serviceId, record!.id)
        : action === 'restore'
          ? restoreDefaults(serviceId)
          : deleteAllRecords(serviceId),
    onSuccess: async (result) => {
      notifySuccess(result.info);
      await onDone();
      onClose();
    },
    onError: (error) => {
      notifyError(error);
      onClose();
    },
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
