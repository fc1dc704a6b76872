import { call } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

export interface ContactMailFields {
  email: string;
  subject: string;
  contents: string;
  privacy: boolean;
  /** The fuller variant's. */
  name?: string;
  phone?: string;
}

/** POST /contactmail/: a signed-in user's message to the provider. */
export const sendContactMail = (fields: ContactMailFields) => call(endpoints.account.contactMail, {}, { ...fields });
