import { call } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

export interface LoginFields {
  domainName: string;
  username: string;
  password: string;
  /** The solved ALTCHA payload (the field keeps its historic name). */
  recaptcha_response: string;
}

/** POST /user/login/: may name the item to open first (domainID, docs/behaviour/shell-session-domains.md#states). */
// Made as "already replayed": a refused sign-in must never open the login modal over itself.
export const login = (fields: LoginFields) => call(endpoints.account.login, {}, { ...fields }, true).then((r) => r.data);
