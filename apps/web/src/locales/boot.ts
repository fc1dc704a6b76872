import { account as accountMessages } from '@atalaya/contract/messages/account';
import { core as coreMessages } from '@atalaya/contract/messages/core';
import { core } from './core.ts';
import { shell } from './shell.ts';

export type Texts = { es: Record<string, string>; en: Record<string, string>; ca: Record<string, string> };

/** One catalogue per language out of several files' texts. */
export const merge = (files: Texts[]): Texts => ({
  es: Object.assign({}, ...files.map((f) => f.es)),
  en: Object.assign({}, ...files.map((f) => f.en)),
  ca: Object.assign({}, ...files.map((f) => f.ca)),
});

/**
 * What start-up loads, i.e. what the sign-in page needs: the server's catalogue of the foundation
 * and of the account (client-side validation speaks its words), the foundation and the shell.
 * The second step's texts come with it (locales/secondStep.ts), the rest of the server's catalogue
 * with the screens that show them (locales/areas.ts) and the screens' texts with the item pages (locales/index.ts),
 * so the sign-in page does not download them (docs/design.md#budgets). The browser gets these in
 * one language at a time: apps/web/bootTexts.ts cuts them per language at build time.
 */
export const BOOT_TEXTS: Texts[] = [coreMessages, accountMessages, core, shell];
