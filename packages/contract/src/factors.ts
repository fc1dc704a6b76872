/** Second factors: TOTP, passkeys and recovery codes (docs/decisions/021-second-factors.md). */
import { z } from 'zod';
import { LIMITS } from './settings.ts';
import { hasLineControl, requiredLine } from './strings.ts';

/** A sealed token the server hands out and takes back unchanged (sign-in challenge, enrolment). */
const token = z
  .string({ error: 'factors.expired' })
  .min(1, 'factors.expired')
  .max(4000)
  .regex(/^[\w.-]+$/, 'factors.expired');
/** Six digits; spaces a user copies along are dropped before the check. */
const totpCode = z
  .string()
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{6}$/, 'factors.code_format'));
/** A recovery code as shown (groups of letters and digits); case and dashes do not matter. */
const recoveryCode = z
  .string()
  .max(64)
  .transform((v) => v.replace(/[\s-]+/g, '').toLowerCase())
  .pipe(z.string().regex(/^[a-z0-9]{10,32}$/, 'factors.recovery_format'));
/** The browser's WebAuthn answer, as JSON text in one form field. */
const credential = z
  .string()
  .min(2, 'factors.passkey_failed')
  .max(20_000)
  .refine((v) => !hasLineControl(v), 'factors.passkey_failed');
/** A code typed to prove it is the user again: an app's digits or a recovery code (letters, digits, dashes). */
export const reauthCode = z
  .string()
  .max(20)
  .regex(/^[\w -]*$/, 'factors.code_wrong');

/** The way a user proves it is them again before a sensitive change: the password or a code. */
export const reauthSchema = z.object({
  password: z.string().max(LIMITS.passwordMax).optional(),
  code: reauthCode.optional(),
});

/** POST /user/login/second/: the first step's challenge plus one of the factors. */
export const secondStepSchema = z.object({
  challenge: token,
  code: totpCode.optional(),
  recoveryCode: recoveryCode.optional(),
  credential: credential.optional(),
});
export type SecondStepInput = z.input<typeof secondStepSchema>;

/** What the first step answers when a second factor is needed. */
export const secondFactorChallengeSchema = z.object({
  challenge: z.string(),
  /** Seconds the challenge lives. */
  expiresIn: z.number(),
  totp: z.boolean(),
  /** WebAuthn request options for the user's passkeys; null without passkeys. */
  passkey: z.record(z.string(), z.unknown()).nullable(),
});
export type SecondFactorChallenge = z.infer<typeof secondFactorChallengeSchema>;

export const factorSchema = z.object({
  id: z.number(),
  kind: z.enum(['totp', 'passkey']),
  name: z.string(),
  createdAt: z.number(),
  lastUsedAt: z.number().nullable(),
});
export type Factor = z.infer<typeof factorSchema>;

/** POST /user/factors/: the user's factors, recovery codes left and whether the realm requires one. */
export const factorListSchema = z.object({ factors: z.array(factorSchema), recoveryCodesLeft: z.number(), required: z.boolean() });
export type FactorList = z.infer<typeof factorListSchema>;

/** POST /user/factors/totp/start/: a new secret, not stored until a first code confirms it. */
export const totpStartSchema = z.object({
  secret: z.string(),
  uri: z.string(),
  /** The otpauth URI as an SVG QR code (data URL). */
  qr: z.string(),
  token: z.string(),
});
export type TotpStart = z.infer<typeof totpStartSchema>;

export const totpConfirmSchema = z.object({ token, code: totpCode });

/** Answered when a factor is added: the first factor also brings the recovery codes, shown once. */
export const enrolledSchema = z.object({ recoveryCodes: z.array(z.string()).nullable() });
export type Enrolled = z.infer<typeof enrolledSchema>;

export const passkeyOptionsSchema = z.object({ options: z.record(z.string(), z.unknown()), token: z.string() });
export type PasskeyOptions = z.infer<typeof passkeyOptionsSchema>;

/** The longest name a factor takes (to tell several passkeys apart). */
export const FACTOR_NAME_MAX = 64;
export const passkeyRegisterSchema = z.object({ token, name: requiredLine(FACTOR_NAME_MAX), credential });

export const factorRenameSchema = z.object({ id: z.coerce.number().int().positive(), name: requiredLine(FACTOR_NAME_MAX) });
export const factorRemoveSchema = reauthSchema.extend({ id: z.coerce.number().int().positive() });

export const recoveryCodesSchema = z.object({ codes: z.array(z.string()) });
