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
import { ENROLLING, endpoint, SIGNED_IN } from './endpoint.ts';

/** Sign-in and session, the user, permissions, legal texts, contact, captcha and the live socket. */
export const account = {
  captcha: endpoint({ method: 'GET', path: '/captcha/', answer: captchaChallengeSchema, permission: { public: 'read' } }),
  login: endpoint({ method: 'POST', path: '/user/login/', body: loginSchema, answer: loginAnswerSchema, permission: { public: 'form' } }),
  // Public so that signing out of an already expired session still clears the cookie.
  logout: endpoint({ method: 'POST', path: '/user/logout/', answer: z.null(), permission: { public: 'form' } }),
  // ENROLLING: the shell and the language still work for a user who must first enrol a second factor.
  info: endpoint({ method: 'POST', path: '/user/info/', answer: userInfoSchema, permission: ENROLLING }),
  preferences: endpoint({
    method: 'POST',
    path: '/user/preferences/',
    body: preferencesSchema,
    answer: savedPreferencesSchema,
    permission: ENROLLING,
  }),
  changePassword: endpoint({
    method: 'POST',
    path: '/user/changepass/',
    body: changePasswordSchema,
    answer: z.null(),
    permission: SIGNED_IN,
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
  contactMail: endpoint({ method: 'POST', path: '/contactmail/', body: contactMailSchema, answer: z.null(), permission: SIGNED_IN }),
  contact: endpoint({ method: 'POST', path: '/contact/', body: contactSchema, answer: z.null(), permission: { public: 'form' } }),
  /** The menu-refresh socket; checked by Origin and session cookie, not the CSRF header. */
  live: endpoint({ method: 'GET', path: '/ws', answer: { socket: true }, permission: SIGNED_IN }),
};
