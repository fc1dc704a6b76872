import { endpoints } from '@atalaya/contract';
import { call } from '../../../lib/api.ts';

export interface ChangePasswordFields {
  actualPassword: string;
  password: string;
}

/** POST /user/changepass/: field errors come back per field (docs/behaviour/shell-session-domains.md#validation). */
export const changePassword = (fields: ChangePasswordFields) => call(endpoints.account.changePassword, {}, { ...fields });
