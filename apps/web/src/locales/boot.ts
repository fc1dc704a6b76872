import { MESSAGES } from '@atalaya/contract';
import { core } from './core.ts';
import { factors } from './factors.ts';
import { shell } from './shell.ts';

export type Texts = { es: Record<string, string>; en: Record<string, string>; ca: Record<string, string> };

/** One catalogue per language out of several files' texts. */
export const merge = (files: Texts[]): Texts => ({
  es: Object.assign({}, ...files.map((f) => f.es)),
  en: Object.assign({}, ...files.map((f) => f.en)),
  ca: Object.assign({}, ...files.map((f) => f.ca)),
});

/**
 * What start-up loads: the server's catalogue (client-side validation speaks its words), the
 * foundation and the shell. The screens' texts come with the item pages (locales/index.ts),
 * so the sign-in page and the dashboard do not download them (docs/design.md#budgets).
 */
export const BOOT_TEXTS: Texts[] = [MESSAGES, core, shell, factors];
