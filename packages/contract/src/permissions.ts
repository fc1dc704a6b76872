/** The 19 permission areas, each granted per user and item. */
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

/** The areas that belong to each kind of service an item may have. */
export const AREAS_BY_KIND = {
  domain: AREAS.filter((a) => a.startsWith('domain')),
  service: AREAS.filter((a) => a.startsWith('service') && !a.startsWith('servicemail')),
  mail: AREAS.filter((a) => a.startsWith('servicemail')),
} as const;
