import type { SecondFactorChallenge } from '@atalaya/contract';
import { call } from '../../../lib/api.ts';
import { endpoints } from '../../../lib/endpoints.ts';

export interface SecondStepFields {
  challenge: string;
  code?: string;
  recoveryCode?: string;
  /** The passkey's assertion, as JSON text. */
  credential?: string;
}

/** POST /user/login/second/: the first step's challenge and one factor (decision 021). Never opens the login modal. */
export const secondStep = (fields: SecondStepFields) => call(endpoints.factors.secondStep, {}, { ...fields }, true).then((r) => r.data);

/** Asks the browser for an assertion of one of the user's passkeys; loads the WebAuthn helper on first use. */
export async function passkeyAssertion(challenge: SecondFactorChallenge): Promise<string> {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  // biome-ignore lint/suspicious/noExplicitAny: the server's options are the WebAuthn JSON the helper expects.
  const answer = await startAuthentication({ optionsJSON: challenge.passkey as any });
  return JSON.stringify(answer);
}
