import type { ListKinds } from '@atalaya/contract';
import { canSee, SCREEN_AREA } from '@atalaya/contract';
import type { ItemPermissions } from '../../lib/permissions.ts';

export interface MenuEntry {
  /** Translation key of the label. */
  label: string;
  to: string;
}

export const GENERIC_MENU: MenuEntry[] = [
  { label: 'shell.dashboard', to: '/admin/' },
  { label: 'shell.preferences', to: '/admin/preferences/' },
  { label: 'shell.activity', to: '/admin/activity/' },
  { label: 'shell.legal', to: '/legal/' },
  { label: 'shell.contact', to: '/admin/contact/' },
];

/** Domains, Services and Mail, each only when some item has that kind (docs/behaviour/shell-session-domains.md#menus). */
export function listMenu(kinds: ListKinds | undefined): MenuEntry[] {
  const entries: MenuEntry[] = [];
  if (kinds?.domain) entries.push({ label: 'shell.domains', to: '/admin/domain/' });
  if (kinds?.service) entries.push({ label: 'shell.services', to: '/admin/service/' });
  if (kinds?.mail) entries.push({ label: 'shell.mails', to: '/admin/mail/' });
  return entries;
}

/** Domain, Hosting or Parking, Sites, FTP, Databases, Mail, DNS zone, Backups: each gated by visibility (docs/behaviour/shell-session-domains.md#menus). */
export function itemMenu(item: ItemPermissions): MenuEntry[] {
  const map = item.permissions;
  const base = `/admin/${item.id}/`;
  const parking = item.service?.isRedirAndParking === true;
  const service = item.hasService;
  const entries: MenuEntry[] = [];
  if (item.hasDomain && canSee(map, SCREEN_AREA.domain)) entries.push({ label: 'shell.domain', to: `${base}domain/` });
  if (service && canSee(map, SCREEN_AREA.hosting))
    entries.push({ label: parking ? 'shell.parking' : 'shell.hosting', to: `${base}service/` });
  if (service && !parking && canSee(map, SCREEN_AREA.sites)) entries.push({ label: 'shell.sites', to: `${base}service/subdomain/` });
  if (service && canSee(map, SCREEN_AREA.ftp)) entries.push({ label: 'shell.ftp', to: `${base}service/ftp/` });
  if (service && canSee(map, SCREEN_AREA.databases)) entries.push({ label: 'shell.databases', to: `${base}service/ddbb/` });
  if (item.hasMail && canSee(map, SCREEN_AREA.mail)) entries.push({ label: 'shell.mail', to: `${base}mail/` });
  if (service && canSee(map, SCREEN_AREA.dnsZone)) entries.push({ label: 'shell.dns_zone', to: `${base}service/dns/` });
  if (service && canSee(map, SCREEN_AREA.backups)) entries.push({ label: 'shell.backups', to: `${base}service/backups/` });
  return entries;
}
