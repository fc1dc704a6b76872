/** Schemas, code tables and limits of the account area, shared by the web forms and the routes. */
import { z } from 'zod';
import { reauthCode, secondFactorChallengeSchema } from './factors.ts';
import { AREAS, LEVELS } from './permissions.ts';
import { LANGUAGES, LIMITS, PALETTE, THEMES } from './settings.ts';
import { requiredLine, requiredMultiLine, singleLine } from './strings.ts';

// A message key as the issue message names the translated text the server sends back (see fromZod).
/** A checkbox arrives as "1", "true" or "on" when ticked; anything else means not accepted. */
const accepted = z.enum(['1', 'true', 'on'], { error: 'account.privacy_required' });
/** The solved ALTCHA payload (base64 JSON) travels in the field historically called recaptcha_response. */
const captcha = z.string({ error: 'account.captcha_required' }).min(1, 'account.captcha_required').max(8000);

export const loginSchema = z.object({
  domainName: requiredLine(253),
  username: requiredLine(64),
  password: z.string().min(1).max(LIMITS.passwordMax),
  recaptcha_response: captcha,
});
export type LoginInput = z.infer<typeof loginSchema>;

/** The current password or, for a user with a second factor, one of its codes (decision 021). */
export const changePasswordSchema = z
  .object({
    actualPassword: z.string().max(LIMITS.passwordMax).optional(),
    code: reauthCode.optional(),
    password: z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax),
  })
  // Checked even when another field failed, so an empty form names every field it lacks.
  .refine((v) => Boolean(v?.actualPassword || v?.code), { path: ['actualPassword'], message: 'validation.required', when: () => true });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** Each preference is optional so the page can save one at a time. */
export const preferencesSchema = z.object({
  theme: z.enum(THEMES).optional(),
  color: z.enum(PALETTE).optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type PreferencesInput = z.infer<typeof preferencesSchema>;

/** The signed-in contact page; name and phone belong to its fuller variant. */
export const contactMailSchema = z.object({
  email: z.email().max(254),
  subject: requiredLine(200),
  contents: requiredMultiLine(5000),
  privacy: accepted,
  name: singleLine(100).optional(),
  phone: singleLine(30).optional(),
});
export type ContactMailInput = z.infer<typeof contactMailSchema>;

/** The sign-in page's forgot-password dialog: no session, so a captcha. */
export const contactSchema = z.object({
  domain: requiredLine(253),
  user: requiredLine(64),
  name: requiredLine(100),
  email: z.email().max(254),
  contents: requiredMultiLine(5000),
  privacy: accepted,
  recaptcha_response: captcha,
});
export type ContactInput = z.infer<typeof contactSchema>;

/** POST /user/info/: the dashboard labels plus what the shell needs (preferences, colour rights). */
export const userInfoSchema = z.object({
  id: z.number(),
  user: z.string(),
  name: z.string(),
  email: z.string(),
  /** The sign-in domain name. */
  domainName: z.string(),
  /** The panel's company (dashboard label "business"). */
  company: z.string(),
  business: z.string(),
  /** The previous sign-in (Unix seconds and IP); the first sign-in shows the current one. */
  tsLastLogin: z.number().nullable(),
  ip: z.string().nullable(),
  total_domain: z.number(),
  language: z.string(),
  theme: z.string(),
  color: z.string(),
  canSetColor: z.boolean(),
  /** The realm requires a second factor and the user has none: only enrolment calls answer. */
  mustEnrol: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

/** POST /user/preferences/: the preferences now in force. */
export const savedPreferencesSchema = z.object({ theme: z.string(), color: z.string(), language: z.string() });

/** GET /permission/list/: one row per item with at least one visible permission. */
export const permissionItemSchema = z.object({
  id: z.number(),
  reference: z.string(),
  hasDomain: z.boolean(),
  hasService: z.boolean(),
  hasMail: z.boolean(),
  isRedirAndParking: z.boolean(),
  /** Unix seconds; null when the item lacks that kind or the user may not see it. */
  domainExpireTS: z.number().nullable(),
  serviceExpireTS: z.number().nullable(),
  mailExpireTS: z.number().nullable(),
});
export type PermissionItem = z.infer<typeof permissionItemSchema>;

/** POST /permission/{id}/: the full map (every area, disabled when not granted) and the breadcrumb expiry data. */
export const permissionSetSchema = z.object({
  id: z.number(),
  reference: z.string(),
  /** Suspended by the provider's billing (the operator API, decision 037): shown on the item's page. */
  suspended: z.boolean(),
  permissions: z.record(z.enum(AREAS), z.enum(LEVELS)),
  hasDomain: z.boolean(),
  hasService: z.boolean(),
  hasMail: z.boolean(),
  domain: z.object({ expireTS: z.number().nullable() }),
  service: z.object({ isRedirAndParking: z.boolean(), expireTS: z.number().nullable() }),
  mail: z.object({ expireTS: z.number().nullable() }),
});
export type PermissionSet = z.infer<typeof permissionSetSchema>;

export const privacyPolicySchema = z.object({ title: z.string(), text: z.string(), redirecTo: z.string().nullable() });
export type PrivacyPolicy = z.infer<typeof privacyPolicySchema>;

/** POST /user/login/: domainID follows docs/behaviour/shell-session-domains.md#states; null means the dashboard. */
/**
 * `success` false with `secondFactor`: the password was right and a second factor is due
 * (POST /user/login/second/). `mustEnrol`: signed in, but the realm requires a second factor the
 * user has not enrolled yet; only the enrolment calls answer until then (decision 021).
 */
export const loginAnswerSchema = z.object({
  success: z.boolean(),
  domainID: z.number().nullable(),
  secondFactor: secondFactorChallengeSchema.optional(),
  mustEnrol: z.boolean().optional(),
});
export type LoginAnswer = z.infer<typeof loginAnswerSchema>;

/** GET /captcha/: an ALTCHA (v2) challenge, solved in the browser. */
export const captchaChallengeSchema = z.object({
  codeChallenge: z.object({ image: z.string(), audio: z.string().optional(), length: z.number().optional() }).optional(),
  parameters: z.object({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number(),
    keyLength: z.number(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    memoryCost: z.number().optional(),
    parallelism: z.number().optional(),
    expiresAt: z.number().optional(),
    data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
  }),
  signature: z.string().optional(),
});
