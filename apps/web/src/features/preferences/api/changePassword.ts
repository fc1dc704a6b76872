import { call } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

export interface ChangePasswordFields {
  actualPassword: string;
  /** Instead of the current password: a code of the user's second factor. */
  code: string;
  password: string;
}

/** POST /user/changepass/: field errors come back per field (docs/behaviour/shell-session-domains.md#validation). */
export const changePassword = (fields: ChangePasswordFields) => call(endpoints.account.changePassword, {}, { ...fields });
