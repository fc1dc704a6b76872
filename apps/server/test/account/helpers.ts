import type { Challenge } from 'altcha-lib';
import { captchaDifficulty } from '../../src/modules/account/captcha.ts';
import { SESSION_COOKIE } from '../../src/modules/session/sessions.ts';
import { encode } from '../fixtures.ts';
import type { TestContext } from '../stores.ts';
import { captchaPayload } from './captcha-solution.ts';

// Real challenges, only cheaper to solve, so the many sign-ins of the suite stay quick.
captchaDifficulty.cost = 1;
captchaDifficulty.counterMin = 10;
captchaDifficulty.counterMax = 200;

export const FORM = { 'content-type': 'application/x-www-form-urlencoded', 'x-dd-request': '1' };

/** Fetches a challenge from GET /p247/captcha/ and solves it as the ALTCHA widget does. */
export async function solvedCaptcha(ctx: TestContext): Promise<string> {
  const res = await ctx.app.inject({ method: 'GET', url: '/p247/captcha/' });
  return captchaPayload(res.json().data as Challenge);
}

export { encode };

export interface LoginFields {
  domainName: string;
  username: string;
  password: string;
  recaptcha_response?: string;
}

/** POST /user/login/ with a freshly solved captcha unless one is given. */
export async function login(ctx: TestContext, fields: LoginFields, headers: Record<string, string> = {}, ip = '127.0.0.1') {
  const recaptcha_response = fields.recaptcha_response ?? (await solvedCaptcha(ctx));
  return ctx.app.inject({
    method: 'POST',
    url: '/p247/user/login/',
    remoteAddress: ip,
    headers: { ...FORM, ...headers },
    payload: encode({ ...fields, recaptcha_response }),
  });
}

/** The session token a response set, or undefined. */
export function sessionToken(res: { cookies: { name: string; value: string }[] }) {
  return res.cookies.find((c) => c.name === SESSION_COOKIE)?.value;
}

export const withSession = (token: string) => ({ cookie: `${SESSION_COOKIE}=${token}`, 'x-dd-request': '1' });
