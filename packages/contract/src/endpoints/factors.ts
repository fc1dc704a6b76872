import { z } from 'zod';
import { loginAnswerSchema } from '../account.ts';
import {
  enrolledSchema,
  factorListSchema,
  factorRemoveSchema,
  factorRenameSchema,
  passkeyOptionsSchema,
  passkeyRegisterSchema,
  reauthSchema,
  recoveryCodesSchema,
  secondStepSchema,
  totpConfirmSchema,
  totpStartSchema,
} from '../factors.ts';
import { ENROLLING, endpoint } from './endpoint.ts';

/**
 * Second factors (decision 021): the sign-in's second step and the Preferences calls that enrol,
 * name and remove them. ENROLLING: a user whose realm requires a factor and who has none may
 * still make these calls, and no others.
 */
export const factors = {
  secondStep: endpoint({
    method: 'POST',
    path: '/user/login/second/',
    body: secondStepSchema,
    answer: loginAnswerSchema,
    permission: { public: 'form' },
    sessionOnly: true,
  }),
  list: endpoint({ method: 'POST', path: '/user/factors/', answer: factorListSchema, permission: ENROLLING, sessionOnly: true }),
  totpStart: endpoint({
    method: 'POST',
    path: '/user/factors/totp/start/',
    answer: totpStartSchema,
    permission: ENROLLING,
    sessionOnly: true,
  }),
  totpConfirm: endpoint({
    method: 'POST',
    path: '/user/factors/totp/confirm/',
    body: totpConfirmSchema,
    answer: enrolledSchema,
    permission: ENROLLING,
    sessionOnly: true,
  }),
  passkeyOptions: endpoint({
    method: 'POST',
    path: '/user/factors/passkey/options/',
    answer: passkeyOptionsSchema,
    permission: ENROLLING,
    sessionOnly: true,
  }),
  passkeyRegister: endpoint({
    method: 'POST',
    path: '/user/factors/passkey/register/',
    body: passkeyRegisterSchema,
    answer: enrolledSchema,
    permission: ENROLLING,
    sessionOnly: true,
  }),
  rename: endpoint({
    method: 'POST',
    path: '/user/factors/rename/',
    body: factorRenameSchema,
    answer: z.null(),
    permission: ENROLLING,
    sessionOnly: true,
  }),
  remove: endpoint({
    method: 'POST',
    path: '/user/factors/remove/',
    body: factorRemoveSchema,
    answer: z.null(),
    permission: ENROLLING,
    sessionOnly: true,
  }),
  recoveryCodes: endpoint({
    method: 'POST',
    path: '/user/factors/recovery/',
    body: reauthSchema,
    answer: recoveryCodesSchema,
    permission: ENROLLING,
    sessionOnly: true,
  }),
};
