/** The 20 permission areas, each granted per user and item. */
export const AREAS = [
  'domain',
  'domain_ownercontacts',
  'domain_contacts',
  'domain_dns',
  'domain_gluerecords',
  'domain_dnssec',
  'domain_transferblock',
  'domain_authcode',
  'domain_others',
  'service',
  'service_ftp',
  'service_subdomains',
  'service_redirects',
  'service_ddbb',
  'service_dnszone',
  'service_parking',
  'service_backups',
  'servicemail',
  'servicemail_accounts',
  'servicemail_alias',
] as const;
export type Area = (typeof AREAS)[number];

export const LEVELS = ['disabled', 'read', 'write'] as const;
export type Level = (typeof LEVELS)[number];
export type PermissionMap = Partial<Record<Area, Level>>;

export const isArea = (value: string): value is Area => (AREAS as readonly string[]).includes(value);

/** Visible means read or write; an action needs write. */
export const canSee = (map: PermissionMap | undefined, area: Area) => map?.[area] === 'read' || map?.[area] === 'write';
export const canAct = (map: PermissionMap | undefined, area: Area) => map?.[area] === 'write';

/** The areas of a domain, of a hosting service and of a mail service (by the prefix of their name). */
export type DomainArea = Extract<Area, `domain${string}`>;
export type ServiceArea = Extract<Area, 'service' | `service_${string}`>;
export type MailArea = Extract<Area, `servicemail${string}`>;

const isServiceArea = (a: Area): a is ServiceArea => a === 'service' || a.startsWith('service_');

/** The areas that belong to each kind of service an item may have. */
export const AREAS_BY_KIND = {
  domain: AREAS.filter((a): a is DomainArea => a.startsWith('domain')),
  service: AREAS.filter(isServiceArea),
  mail: AREAS.filter((a): a is MailArea => a.startsWith('servicemail')),
} as const;

/**
 * The area that shows each screen of an item (docs/behaviour/shell-session-domains.md#menus): its
 * menu entry, the 404 of its route, the page an item opens on and the landing rule after sign-in.
 * The server's landing rule and the web's shell read it here, so no screen names an area itself.
 */
export const SCREEN_AREA = {
  domain: 'domain',
  hosting: 'service',
  sites: 'service_subdomains',
  ftp: 'service_ftp',
  databases: 'service_ddbb',
  mail: 'servicemail',
  dnsZone: 'service_dnszone',
  backups: 'service_backups',
} as const satisfies Record<string, Area>;
