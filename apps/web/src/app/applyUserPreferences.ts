import { type Language, toColor, toLanguage } from '@atalaya/contract';
import { CACHE_KEYS } from '../lib/cache.ts';
import { currentLanguage, rememberLanguage, switchLanguage } from '../lib/i18n.ts';
import type { UserInfo } from '../lib/session.ts';
import { setColor } from '../lib/theme.ts';

/**
 * A signed-in user's saved choices follow them to a new browser: language and theme unless this
 * browser already has its own, colour whenever colours may be chosen.
 */
export async function applyUserPreferences(user: UserInfo) {
  const language: Language = toLanguage(user.language);
  // A language picked in this browser (the `_lang` cookie) wins over the one saved on the server.
  const picked = document.cookie.split('; ').some((c) => c.startsWith('_lang='));
  if (!picked && language !== currentLanguage()) {
    rememberLanguage(language);
    await switchLanguage(language);
  }
  if (user.canSetColor && user.color) setColor(toColor(user.color));
  if (!localStorage.getItem(CACHE_KEYS.theme) && user.theme) localStorage.setItem(CACHE_KEYS.theme, user.theme);
}
