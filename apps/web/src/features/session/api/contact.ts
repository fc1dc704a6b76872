import { call } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

export interface ForgotFields {
  domain: string;
  user: string;
  name: string;
  email: string;
  contents: string;
  privacy: boolean;
  recaptcha_response: string;
}

/** POST /contact/: the sign-in page's "forgot password" message to the provider (no session). */
export const sendForgot = (fields: ForgotFields) => call(endpoints.account.contact, {}, { ...fields }, true);
