import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api.ts';

export interface LoginFields {
  domainName: string;
  username: string;
  password: string;
  /** The solved ALTCHA payload (spec §7 keeps the historic field name). */
  recaptcha_response: string;
}

/** POST /user/login/: may name the item to open first (domainID, spec §4). */
export interface LoginAnswer {
  domainID?: number | null;
}

// Made as "already replayed": a refused sign-in must never open the login modal over itself.
export const login = (fields: LoginFields) => call<LoginAnswer>('POST', 'user/login/', { ...fields }, true).then((r) => r.data);

export const useLogin = () => useMutation({ mutationFn: login, meta: { quiet: true } });
