import { factors as factorMessages } from '@atalaya/contract/messages/factors';
import type { Texts } from './boot.ts';
import { factors } from './factors.ts';

/**
 * The second factors' texts, the server's and the web's: they load with the only screens that use
 * them, the sign-in's second step (features/session/components/LoginForm.tsx), which most sign-ins
 * never show, and Preferences (app/router.tsx), where factors are enrolled and managed.
 */
export const SECOND_STEP_TEXTS: Texts[] = [factorMessages, factors];
