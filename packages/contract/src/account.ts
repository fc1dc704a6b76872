/** Schemas, code tables and limits of the account area, shared by the web forms and the routes. */
import { z } from 'zod';
import type { Area, Level } from './permissions.ts';
import { LANGUAGES, LIMITS, PALETTE, THEMES } from './settings.ts';

// A message key as the issue message names the translated text the server sends back (see fromZod).
const required = (max: number) => z.string().trim().min(1).max(max);
const singleLine = (max: number) => required(max).refine((v) => !/[\r\n]/.test(v), 'validation.invalid');
/** A checkbox arrives as "1", "true" or "on" when ticked; anything else means not accepted. */
const accepted = z.enum(['1', 'true', 'on'], { error: 'account.privacy_required' });
/** The solved ALTCHA payload (base64 JSON) travels in the field the spec calls recaptcha_response. */
const captcha = z.string({ error: 'account.captcha_required' }).min(1, 'account.captcha_required').max(8000);

export const loginSchema = z.object({
  domainName: required(253),
  username: required(64),
  password: z.string().min(1).max(LIMITS.passwordMax),
  recaptcha_response: captcha,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const changePasswordSchema = z.object({
  actualPassword: z.string().min(1).max(LIMITS.passwordMax),
  password: z.string().min(LIMITS.passwordMin).max(LIMITS.passwordMax),
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

/** Each preference is optional so the page can save one at a time. */
export const preferencesSchema = z.object({
  theme: z.enum(THEMES).optional(),
  color: z.enum(PALETTE).optional(),
  language: z.enum(LANGUAGES).optional(),
});
export type PreferencesInput = z.infer<typeof preferencesSchema>;

const optionalText = (max: number) => z.string().trim().max(max).optional();

/** The signed-in contact page; name and phone belong to its fuller variant. */
export const contactMailSchema = z.object({
  email: z.email().max(254),
  subject: singleLine(200),
  contents: required(5000),
  privacy: accepted,
  name: optionalText(100).refine((v) => !v || !/[\r\n]/.test(v), 'validation.invalid'),
  phone: optionalText(30),
});
export type ContactMailInput = z.infer<typeof contactMailSchema>;

/** The sign-in page's forgot-password dialog: no session, so a captcha. */
export const contactSchema = z.object({
  domain: singleLine(253),
  user: singleLine(64),
  name: singleLine(100),
  email: z.email().max(254),
  contents: required(5000),
  privacy: accepted,
  recaptcha_response: captcha,
});
export type ContactInput = z.infer<typeof contactSchema>;

/** POST /user/info/: the dashboard labels plus what the shell needs (preferences, colour rights). */
export interface UserInfo {
  id: number;
  user: string;
  name: string;
  email: string;
  /** The sign-in domain name. */
  domainName: string;
  /** The panel's company (dashboard label "business"). */
  company: string;
  business: string;
  /** The previous sign-in (Unix seconds and IP); the first sign-in shows the current one. */
  tsLastLogin: number | null;
  ip: string | null;
  total_domain: number;
  language: string;
  theme: string;
  color: string;
  canSetColor: boolean;
}

/** GET /permission/list/: one row per item with at least one visible permission. */
export interface PermissionItem {
  id: number;
  reference: string;
  hasDomain: boolean;
  hasService: boolean;
  hasMail: boolean;
  isRedirAndParking: boolean;
  /** Unix seconds; null when the item lacks that kind or the user may not see it. */
  domainExpireTS: number | null;
  serviceExpireTS: number | null;
  mailExpireTS: number | null;
}

/** POST /permission/{id}/: the full map (every area, disabled when not granted) and the breadcrumb expiry data. */
export interface PermissionSet {
  id: number;
  reference: string;
  permissions: Record<Area, Level>;
  hasDomain: boolean;
  hasService: boolean;
  hasMail: boolean;
  domain: { expireTS: number | null };
  service: { isRedirAndParking: boolean; expireTS: number | null };
  mail: { expireTS: number | null };
}

export interface PrivacyPolicy {
  title: string;
  text: string;
  redirecTo: string | null;
}

/** POST /user/login/: domainID follows the spec's redirect rule; null means the dashboard. */
export interface LoginAnswer {
  success: true;
  domainID: number | null;
}
