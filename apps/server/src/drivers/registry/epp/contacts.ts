import type { ContactType } from '@atalaya/contract';
import { now, type Store } from '../../../store/db.ts';
import type { ContactData } from '../interface.ts';
import { CONTACT_ROW, contactColumns, toContact } from '../rows.ts';
import { type EppContact, personName } from './contact-xml.ts';

/**
 * The panel keeps its own copy of each role's contact in `domain_contact`, with the registry's
 * contact id as `handle`: RFC 5733 has one name where the panel has first and last name, and no
 * place for the identity number or the keys of city and province. What the registry holds wins;
 * the copy fills in what EPP cannot carry, while it still describes the same person and place.
 */

export async function panelContacts(store: Store, itemId: number): Promise<Partial<Record<ContactType, ContactData & { handle: string }>>> {
  const rows = await store
    .selectFrom('domain_contact')
    .select([...CONTACT_ROW, 'handle'])
    .where('item_id', '=', itemId)
    .execute();
  return Object.fromEntries(rows.map((row) => [row.type, { ...toContact(row), handle: row.handle }]));
}

/** Whether the panel registered the domain once: it keeps a copy of each contact it created at the registry. */
export async function registeredBefore(store: Store, itemId: number): Promise<boolean> {
  const row = await store.selectFrom('domain_contact').select('item_id').where('item_id', '=', itemId).executeTakeFirst();
  return row !== undefined;
}

export async function savePanelContact(store: Store, itemId: number, type: ContactType, handle: string, data: ContactData) {
  const t = now();
  await store
    .insertInto('domain_contact')
    .values({ item_id: itemId, type, handle, ...contactColumns(data, t) })
    .onConflict((oc) => oc.columns(['item_id', 'type']).doUpdateSet({ handle, ...contactColumns(data, t) }))
    .execute();
}

/** The registry's contact as the panel shows it, completed from the panel's copy where that still matches. */
export function mergeContact(epp: EppContact, copy: ContactData | undefined): ContactData {
  const sameName = copy !== undefined && personName(copy) === epp.name;
  const space = epp.name.lastIndexOf(' ');
  return {
    isOrg: Boolean(epp.org),
    orgName: epp.org,
    firstName: sameName ? copy.firstName : space > 0 ? epp.name.slice(0, space) : epp.name,
    lastName: sameName ? copy.lastName : space > 0 ? epp.name.slice(space + 1) : '',
    identNumber: copy?.identNumber ?? '',
    email: epp.email,
    phone: epp.voice,
    address: epp.street,
    postalCode: epp.postalCode,
    city: epp.city,
    cityKey: copy && copy.city === epp.city ? copy.cityKey : '',
    state: epp.state,
    stateKey: copy && copy.state === epp.state ? copy.stateKey : '',
    country: epp.country,
  };
}

/** True when the registry's contact already holds what the panel would write (a lost update that took effect). */
export const holds = (epp: EppContact, data: ContactData) =>
  epp.name === personName(data) &&
  epp.email === data.email &&
  epp.voice === data.phone &&
  epp.street === data.address &&
  epp.city === data.city;
