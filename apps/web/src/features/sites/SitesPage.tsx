import type { Redirection, Subdomain } from '@atalaya/contract';
import { Button, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { StateBadge } from '../../components/hosting/StateBadge.tsx';
import { ConfirmDialog } from '../../components/ui/ConfirmDialog.tsx';
import { DataList } from '../../components/ui/DataList.tsx';
import { useFormMutation } from '../../components/ui/useFormMutation.ts';
import { endpoints } from '../../lib/endpoints.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { usePermissions } from '../../lib/permissions.ts';
import { useParams } from '../../lib/router/hooks.ts';
import { deleteRedirection, deleteSite, redirectionsQuery, sitesKey, subdomainsQuery } from './api/sites.ts';
import { RedirectionDialog } from './components/RedirectionDialog.tsx';
import { SiteCard } from './components/SiteCard.tsx';
import { SiteDialog } from './components/SiteDialog.tsx';
import { InstallerWizard } from './installer/InstallerWizard.tsx';

type Pending = { kind: 'site'; site: Subdomain } | { kind: 'redirection'; redirection: Redirection } | null;

/** /admin/:id/service/subdomain/: the service's sites as cards, their redirections, and the installer. */
export default function SitesPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const permissions = usePermissions(id);
  const { check } = permissions;
  const data = permissions.data;
  const available = Boolean(data && !data.service.isRedirAndParking && permissions.canCall(endpoints.sites.list));
  const list = useQuery({ ...subdomainsQuery(id), enabled: available });
  const sites = list.data?.subdomains;
  const removed = list.data?.removed;
  const redirections = useQuery({ ...redirectionsQuery(id), enabled: available && permissions.canCall(endpoints.sites.redirectionList) });
  const [siteDialog, setSiteDialog] = useState<{ site: Subdomain | null } | null>(null);
  const [redirectionTarget, setRedirectionTarget] = useState<{ host: string } | { redirection: Redirection } | null>(null);
  const [installer, setInstaller] = useState<{ siteId: number | null } | null>(null);
  const [pending, setPending] = useState<Pending>(null);
  const remove = useFormMutation({
    opened: pending !== null,
    permission: { check, call: pending?.kind === 'redirection' ? endpoints.sites.redirectionDelete : endpoints.sites.delete },
    send: () => (pending?.kind === 'site' ? deleteSite(id, pending.site.id) : deleteRedirection(id, pending!.redirection.id)),
    reload: [sitesKey(id)],
    onClose: () => setPending(null),
    closeOnError: true,
  });
  const bySite = useMemo(() => {
    const map = new Map<string, Redirection[]>();
    for (const r of redirections.data ?? []) map.set(r.subdominio, [...(map.get(r.subdominio) ?? []), r]);
    return map;
  }, [redirections.data]);

  if (!data) return null;
  if (!available) return <Text c="dimmed">{t('sites.not_available')}</Text>;
  const canEdit = permissions.canCall(endpoints.sites.create);
  const canRedirect = permissions.canCall(endpoints.sites.redirectionCreate);
  const canInstall = permissions.canCall(endpoints.sites.install);

  // The server lets a writer of either area retry: both queue a host's apply.
  const canRetry = canEdit || canRedirect;
  const toolbar = (
    <Group gap="xs">
      {removed && removed.state !== 'ready' && (
        <Group gap={0} data-testid="sites-removed">
          <Text size="sm">{t('sites.removed')}</Text>
          <StateBadge
            state={removed.state}
            retry={canRetry && { itemId: Number(id), job: removed.job, listKey: sitesKey(id), name: t('sites.removed_named') }}
          />
        </Group>
      )}
      {canInstall && (
        <Button variant="light" onClick={() => setInstaller({ siteId: null })} disabled={!sites?.length}>
          {t('sites.install')}
        </Button>
      )}
      {canEdit && <Button onClick={() => setSiteDialog({ site: null })}>{t('sites.create')}</Button>}
    </Group>
  );

  return (
    <>
      <DataList
        rows={sites}
        rowKey={(site) => site.id}
        filterText={(site) => `${site.subdominio}.${site.referencePunycode} ${site.directorio}`}
        label={t('sites.list_label')}
        emptyText={t('sites.empty')}
        toolbar={toolbar}
        renderRow={(site) => (
          <SiteCard
            site={site}
            redirections={bySite.get(site.subdominio) ?? []}
            actions={{
              canEdit,
              canRedirect,
              canInstall,
              onEdit: () => setSiteDialog({ site }),
              onDelete: () => setPending({ kind: 'site', site }),
              onAddRedirection: () => setRedirectionTarget({ host: site.subdominio }),
              onInstall: () => setInstaller({ siteId: site.id }),
              onEditRedirection: (redirection) => setRedirectionTarget({ redirection }),
              onDeleteRedirection: (redirection) => setPending({ kind: 'redirection', redirection }),
              retry: canRetry && {
                itemId: Number(id),
                job: site.job,
                listKey: sitesKey(id),
                name: `${site.subdominio}.${site.referencePunycode}`,
              },
            }}
          />
        )}
      />
      <SiteDialog
        serviceId={id}
        reference={data.reference}
        site={siteDialog?.site ?? null}
        opened={siteDialog !== null}
        onClose={() => setSiteDialog(null)}
      />
      <RedirectionDialog
        serviceId={id}
        reference={data.reference}
        hosts={(sites ?? []).map((s) => s.subdominio)}
        target={redirectionTarget}
        onClose={() => setRedirectionTarget(null)}
      />
      <InstallerWizard
        serviceId={id}
        sites={sites ?? []}
        launchedFrom={installer?.siteId ?? null}
        opened={installer !== null}
        onClose={() => setInstaller(null)}
      />
      <ConfirmDialog
        opened={pending !== null}
        danger
        loading={remove.isPending}
        title={pending?.kind === 'redirection' ? t('sites.redirection_delete') : t('sites.delete')}
        message={
          pending?.kind === 'redirection'
            ? t('sites.redirection_delete_confirm', { origin: pending.redirection.origin })
            : t('sites.delete_confirm', { name: pending ? `${pending.site.subdominio}.${pending.site.referencePunycode}` : '' })
        }
        onConfirm={() => remove.mutate()}
        onClose={() => setPending(null)}
      />
    </>
  );
}
