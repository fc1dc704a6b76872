import type { Redirection, Subdomain } from '@atalaya/contract';
import { ActionIcon, Anchor, Badge, Button, Card, Collapse, Group, Menu, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { type Retry, StateBadge } from '../../../components/hosting/StateBadge.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { CertificateDetails } from './CertificateDetails.tsx';
import { RedirectionsTable } from './RedirectionsTable.tsx';

export interface SiteActions {
  canEdit: boolean;
  canRedirect: boolean;
  canInstall: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onAddRedirection: () => void;
  onInstall: () => void;
  onEditRedirection: (row: Redirection) => void;
  onDeleteRedirection: (row: Redirection) => void;
  /** Set for a user who may write the site or its redirections: a failed apply of its host offers a retry. */
  retry: Retry | false;
}

/** docs/behaviour/service-area-dns.md#sites: a card per site with its link (https when SSL is on), folder, SSL tag and redirections. */
export function SiteCard({ site, redirections, actions }: { site: Subdomain; redirections: Redirection[]; actions: SiteActions }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const host = `${site.subdominio}.${site.referencePunycode}`;
  const url = `${site.ssl.enabled ? 'https' : 'http'}://${host}/`;
  const hasMenu = actions.canEdit || actions.canRedirect || actions.canInstall;
  return (
    <Card withBorder padding="md" data-testid={`site-${site.subdominio}`}>
      <Group justify="space-between" wrap="nowrap" align="start">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Anchor
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            fw={600}
            className="break-anywhere"
            aria-label={t('sites.open_site', { url })}
          >
            {url}
          </Anchor>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              {t('sites.folder')}: /{site.directorio}
            </Text>
            <Badge color={site.ssl.enabled ? 'green' : 'gray'} variant="light">
              {site.ssl.enabled ? t('sites.ssl') : t('sites.no_ssl')}
            </Badge>
            <StateBadge state={site.state} waitingFor={site.waitingFor} retry={actions.retry} />
          </Group>
          {site.ssl.enabled && <CertificateDetails site={site} />}
        </Stack>
        {hasMenu && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" aria-label={t('sites.menu', { name: host })}>
                ⋮
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {actions.canEdit && <Menu.Item onClick={actions.onEdit}>{t('sites.edit')}</Menu.Item>}
              {actions.canRedirect && <Menu.Item onClick={actions.onAddRedirection}>{t('sites.redirection_create')}</Menu.Item>}
              {actions.canInstall && <Menu.Item onClick={actions.onInstall}>{t('sites.install_here')}</Menu.Item>}
              {actions.canEdit && site.eliminable && (
                <Menu.Item color="red" onClick={actions.onDelete}>
                  {t('sites.delete')}
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      <Group mt="xs" gap="xs">
        <Text size="sm">{t('sites.redirections_count', { count: site.redirections })}</Text>
        {redirections.length > 0 && (
          <Button size="compact-xs" variant="subtle" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? t('sites.hide_redirections') : t('sites.show_redirections')}
          </Button>
        )}
      </Group>
      <Collapse expanded={open}>
        <RedirectionsTable
          label={t('sites.redirections_label', { name: host })}
          rows={redirections}
          canWrite={actions.canRedirect}
          onEdit={actions.onEditRedirection}
          onDelete={actions.onDeleteRedirection}
        />
      </Collapse>
    </Card>
  );
}
