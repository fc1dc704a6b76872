import { queryOptions } from '@tanstack/react-query';
import { call, fetchData } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

/** POST /user/factors/: the user's second factors, recovery codes left, and whether the realm requires one. */
export const factorsQuery = queryOptions({ queryKey: ['user', 'factors'], queryFn: () => fetchData(endpoints.factors.list, {}) });

export interface ReauthFields {
  password: string;
  code: string;
}

/**
 * A new authenticator-app secret (QR code and text), stored only once a first code confirms it;
 * handed out after the current password or a code of a factor the user had before this session.
 */
export const startTotp = (fields: ReauthFields) => call(endpoints.factors.totpStart, {}, { ...fields });
export const confirmTotp = (fields: { token: string; code: string }) => call(endpoints.factors.totpConfirm, {}, fields);

/** Registration options from the server (after re-authentication), the browser's passkey dialog, then the server's check. */
export async function addPasskey(name: string, fields: ReauthFields) {
  const { options, token } = await call(endpoints.factors.passkeyOptions, {}, { ...fields }).then((r) => r.data);
  const { startRegistration } = await import('@simplewebauthn/browser');
  // biome-ignore lint/suspicious/noExplicitAny: the server's options are the WebAuthn JSON the helper expects.
  const credential = await startRegistration({ optionsJSON: options as any });
  return call(endpoints.factors.passkeyRegister, {}, { token, name, credential: JSON.stringify(credential) });
}

export const renameFactor = (id: number, name: string) => call(endpoints.factors.rename, {}, { id, name });
export const removeFactor = (id: number, fields: ReauthFields) => call(endpoints.factors.remove, {}, { id, ...fields });
export const newRecoveryCodes = (fields: ReauthFields) => call(endpoints.factors.recoveryCodes, {}, { ...fields });
