import type { MenuEntry } from './menus.ts';

const SECTIONS: Record<string, string> = {
  domain: 'shell.domains',
  service: 'shell.services',
  mail: 'shell.mails',
  preferences: 'shell.preferences',
  contact: 'shell.contact',
};
const ITEM_PARTS: Record<string, string> = {
  domain: 'shell.domain',
  service: 'shell.hosting',
  mail: 'shell.mail',
  ftp: 'shell.ftp',
  subdomain: 'shell.sites',
  ddbb: 'shell.databases',
  dns: 'shell.dns_zone',
  backups: 'shell.backups',
};

/**
 * The breadcrumb of a path: the dashboard, then the section or the item (its reference) and the
 * item's area. A label starting with '=' is shown as is (a reference), others are translation keys.
 */
export function crumbsOf(pathname: string, reference?: string): MenuEntry[] {
  const parts = pathname.split('/').filter(Boolean);
  const crumbs: MenuEntry[] = [{ label: 'shell.dashboard', to: '/admin/' }];
  if (parts[0] === 'legal') return [...crumbs, { label: 'shell.legal', to: '/legal/' }];
  if (parts[0] !== 'admin' || parts.length < 2) return crumbs;
  const [, second, ...rest] = parts;
  if (!/^\d+$/.test(second)) return SECTIONS[second] ? [...crumbs, { label: SECTIONS[second], to: `/admin/${second}/` }] : crumbs;
  let to = `/admin/${second}/`;
  crumbs.push({ label: `=${reference ?? second}`, to });
  for (const part of rest) {
    to += `${part}/`;
    if (ITEM_PARTS[part]) crumbs.push({ label: ITEM_PARTS[part], to });
  }
  return crumbs;
}
