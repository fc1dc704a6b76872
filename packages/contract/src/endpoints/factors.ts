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
/** A factor call: a POST that only the browser session makes, open while the user must still enrol. */
const factorCall = <A extends z.ZodType, B extends z.ZodType | undefined = undefined>(spec: { path: string; body?: B; answer: A }) =>
  endpoint({ method: 'POST', path: spec.path, body: spec.body, answer: spec.answer, permission: ENROLLING, sessionOnly: true });

export const factors = {
  secondStep: endpoint({
    method: 'POST',
    path: '/user/login/second/',
    body: secondStepSchema,
    answer: loginAnswerSchema,
    permission: { public: 'form' },
    sessionOnly: true,
  }),
  list: factorCall({ path: '/user/factors/', answer: factorListSchema }),
  // Adding a factor starts with the current password or a factor the user had before this session.
  totpStart: factorCall({ path: '/user/factors/totp/start/', body: reauthSchema, answer: totpStartSchema }),
  totpConfirm: factorCall({ path: '/user/factors/totp/confirm/', body: totpConfirmSchema, answer: enrolledSchema }),
  passkeyOptions: factorCall({ path: '/user/factors/passkey/options/', body: reauthSchema, answer: passkeyOptionsSchema }),
  passkeyRegister: factorCall({ path: '/user/factors/passkey/register/', body: passkeyRegisterSchema, answer: enrolledSchema }),
  rename: factorCall({ path: '/user/factors/rename/', body: factorRenameSchema, answer: z.null() }),
  remove: factorCall({ path: '/user/factors/remove/', body: factorRemoveSchema, answer: z.null() }),
  recoveryCodes: factorCall({ path: '/user/factors/recovery/', body: reauthSchema, answer: recoveryCodesSchema }),
};
