import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Database } from '../../store/schema.ts';
import type { ContactData, SecDns } from './interface.ts';

/** Between the local registry's rows and the driver's EPP-shaped records. */

/** The columns a contact is read with. */
export const CONTACT_ROW = [
  'type',
  'is_org',
  'org_name',
  'first_name',
  'last_name',
  'ident_number',
  'email',
  'phone',
  'address',
  'postal_code',
  'city',
  'city_key',
  'state',
  'state_key',
  'country',
] as const satisfies readonly (keyof Database['domain_contact'])[];

type ContactRow = Pick<Selectable<Database['domain_contact']>, (typeof CONTACT_ROW)[number]>;

/** A JSON array read with a row: SQLite answers it as text, PostgreSQL's driver parses it already. */
export const fromJson = <T>(value: T[] | string): T[] => (typeof value === 'string' ? JSON.parse(value) : value);

export const toContact = (row: ContactRow): ContactData => ({
  isOrg: row.is_org === 1,
  orgName: row.org_name,
  firstName: row.first_name,
  lastName: row.last_name,
  identNumber: row.ident_number,
  email: row.email,
  phone: row.phone,
  address: row.address,
  postalCode: row.postal_code,
  city: row.city,
  cityKey: row.city_key,
  state: row.state,
  stateKey: row.state_key,
  country: row.country,
});

export const contactColumns = (data: ContactData, at: number) => ({
  is_org: data.isOrg ? 1 : 0,
  org_name: data.isOrg ? data.orgName : '',
  first_name: data.firstName,
  last_name: data.lastName,
  ident_number: data.identNumber,
  email: data.email,
  phone: data.phone,
  address: data.address,
  postal_code: data.postalCode,
  city: data.city,
  city_key: data.cityKey,
  state: data.state,
  state_key: data.stateKey,
  country: data.country,
  updated_at: at,
});

/** RFC 5733 contact:id: 3–16 characters, unique in the registry. */
export const newHandle = () => `ATL${randomBytes(6).toString('hex').toUpperCase()}`;

export const toSecDns = (row: Selectable<Database['domain_ds']>): SecDns => ({
  id: row.id,
  type: row.type === 'pubkey' ? 'pubkey' : 'digest',
  keyTag: row.key_tag,
  algorithm: row.algorithm,
  digestType: row.digest_type,
  digest: row.digest,
  flags: row.flags,
  protocol: row.protocol,
});
