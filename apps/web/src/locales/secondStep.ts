import { factors as factorMessages } from '@atalaya/contract/messages/factors';
import type { Texts } from './boot.ts';
import { factors } from './factors.ts';

/**
 * The second factors' texts, the server's and the web's: they load with the sign-in's second step
 * (features/session/components/LoginForm.tsx), which most sign-ins never show, and with the panel
 * (Preferences, the enrolment).
 */
export const SECOND_STEP_TEXTS: Texts[] = [factorMessages, factors];
