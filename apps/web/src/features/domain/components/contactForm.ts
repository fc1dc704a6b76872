import type { Contact, ContactType } from '@atalaya/contract';

/** The contact form's state: all text, the phone split into its prefix and number. */
export interface ContactForm {
  isOrg: '0' | '1';
  orgName: string;
  firstName: string;
  lastName: string;
  identNumber: string;
  email: string;
  prefix: string;
  number: string;
  country: string;
  state: string;
  city: string;
  postalCode: string;
  address: string;
  mode: 'only_contact' | 'all_contacts';
}

export const EMPTY_CONTACT: ContactForm = {
  isOrg: '0',
  orgName: '',
  firstName: '',
  lastName: '',
  identNumber: '',
  email: '',
  prefix: '34',
  number: '',
  country: 'ES',
  state: '',
  city: '',
  postalCode: '',
  address: '',
  mode: 'only_contact',
};

export function fromContact(contact: Contact | null): ContactForm {
  if (!contact) return EMPTY_CONTACT;
  const [, prefix = '', number = ''] = /^\+(\d*)\.?(.*)$/.exec(contact.phone) ?? [];
  return {
    ...EMPTY_CONTACT,
    isOrg: contact.type === 'organization' ? '1' : '0',
    orgName: contact.orgName,
    firstName: contact.firstName,
    lastName: contact.lastName,
    identNumber: contact.vat,
    email: contact.email,
    prefix,
    number,
    country: contact.countryKey,
    state: contact.state,
    city: contact.city,
    postalCode: contact.postalCode,
    address: contact.address,
  };
}

/** What the save calls take: the phone travels as +prefix.number (docs/behaviour/shell-session-domains.md#validation). */
export function toFields(form: ContactForm, type: ContactType) {
  const { prefix, number, mode, ...rest } = form;
  const fields = {
    ...rest,
    phone: `+${prefix.replace(/\D/g, '')}.${number.replace(/\D/g, '')}`,
    orgName: form.isOrg === '1' ? form.orgName : '',
  };
  return type === 'registrant' ? fields : { ...fields, type, mode };
}
