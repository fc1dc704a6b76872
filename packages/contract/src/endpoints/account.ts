import { z } from 'zod';
import {
  captchaChallengeSchema,
  changePasswordSchema,
  contactMailSchema,
  contactSchema,
  loginAnswerSchema,
  loginSchema,
  permissionItemSchema,
  permissionSetSchema,
  preferencesSchema,
  privacyPolicySchema,
  savedPreferencesSchema,
  userInfoSchema,
} from '../account.ts';
import { tokenCreatedSchema, tokenCreateSchema, tokenListSchema } from '../tokens.ts';
import { ENROLLING, endpoint, SIGNED_IN } from './endpoint.ts';

/** Sign-in and session, the user, permissions, legal texts, contact, captcha and the live socket. */
export const account = {
  captcha: endpoint({ method: 'GET', path: '/captcha/', answer: captchaChallengeSchema, permission: { public: 'read' } }),
  login: endpoint({
    method: 'POST',
    path: '/user/login/',
    body: loginSchema,
    answer: loginAnswerSchema,
    permission: { public: 'form' },
    sessionOnly: true,
  }),
  // Public so that signing out of an already expired session still clears the cookie.
  logout: endpoint({ method: 'POST', path: '/user/logout/', answer: z.null(), permission: { public: 'form' }, sessionOnly: true }),
  // ENROLLING: the shell and the language still work for a user who must first enrol a second factor.
  // Session only: it shows the account (the last sign-in's address and time), which no token's scope covers.
  info: endpoint({ method: 'POST', path: '/user/info/', answer: userInfoSchema, permission: ENROLLING, sessionOnly: true }),
  preferences: endpoint({
    method: 'POST',
    path: '/user/preferences/',
    body: preferencesSchema,
    answer: savedPreferencesSchema,
    permission: ENROLLING,
    sessionOnly: true,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/user/changepass/',
    body: changePasswordSchema,
    answer: z.null(),
    permission: SIGNED_IN,
    sessionOnly: true,
  }),
  /** The user's API tokens and the ceiling a new one's scope must stay within. */
  tokenList: endpoint({ method: 'GET', path: '/user/tokens/', answer: tokenListSchema, permission: SIGNED_IN, sessionOnly: true }),
  /** Asks for the current password; the answer holds the token's secret, the only time it is shown. */
  tokenCreate: endpoint({
    method: 'POST',
    path: '/user/tokens/create/',
    body: tokenCreateSchema,
    answer: tokenCreatedSchema,
    permission: SIGNED_IN,
    sessionOnly: true,
  }),
  tokenRevoke: endpoint({
    method: 'POST',
    path: '/user/tokens/:id/revoke/',
    params: z.object({ id: z.string().max(20) }),
    answer: z.null(),
    permission: SIGNED_IN,
    sessionOnly: true,
  }),
  // Any id text is accepted so that a malformed id answers 404 like a foreign one, revealing nothing.
  permission: endpoint({
    method: 'POST',
    path: '/permission/:id/',
    params: z.object({ id: z.string().max(20) }),
    answer: permissionSetSchema,
    permission: SIGNED_IN,
  }),
  permissionList: endpoint({ method: 'GET', path: '/permission/list/', answer: z.array(permissionItemSchema), permission: SIGNED_IN }),
  privacyPolicy: endpoint({ method: 'GET', path: '/legal/privacypolicy/', answer: privacyPolicySchema, permission: { public: 'read' } }),
  // Sends mail as the user: the account's own call, never a token's.
  contactMail: endpoint({
    method: 'POST',
    path: '/contactmail/',
    body: contactMailSchema,
    answer: z.null(),
    permission: SIGNED_IN,
    sessionOnly: true,
  }),
  contact: endpoint({ method: 'POST', path: '/contact/', body: contactSchema, answer: z.null(), permission: { public: 'form' } }),
  /** The menu-refresh socket; checked by Origin and session cookie, not the CSRF header. */
  live: endpoint({ method: 'GET', path: '/ws', answer: { socket: true }, permission: SIGNED_IN, sessionOnly: true }),
};
