import { call } from '../../../lib/api.ts';

export interface ChangePasswordFields {
  actualPassword: string;
  password: string;
}

/** POST /user/changepass/: field errors come back per field (spec §5). */
export const changePassword = (fields: ChangePasswordFields) => call<unknown>('POST', 'user/changepass/', { ...fields });
