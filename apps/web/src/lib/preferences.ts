import type { Language, PaletteColor, Theme } from '@atalaya/contract';
import { call } from './api.ts';
import { tellOtherTabs } from './broadcast.ts';
import { endpoints } from './endpoints.ts';
import { rememberLanguage, switchLanguage } from './i18n.ts';
import { setColor } from './theme.ts';

/** POST /user/preferences/ (docs/design.md#api): kept on the server only for a signed-in user. */
const save = (signedIn: boolean, fields: { theme?: Theme; color?: PaletteColor; language?: Language }) =>
  signedIn ? call(endpoints.account.preferences, {}, fields).catch(() => undefined) : Promise.resolve(undefined);

export async function changeLanguage(language: Language, signedIn: boolean) {
  rememberLanguage(language);
  await switchLanguage(language);
  await save(signedIn, { language });
  tellOtherTabs({ type: 'language', language });
}

/** The colour scheme itself is switched by Mantine's hook; this keeps the choice on the server. */
export const saveTheme = (theme: Theme, signedIn: boolean) => save(signedIn, { theme });

export function changeColor(color: PaletteColor, signedIn: boolean) {
  setColor(color);
  return save(signedIn, { color });
}
