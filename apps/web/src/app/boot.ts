import { listenToOtherTabs } from '../lib/broadcast.ts';
import { initI18n } from '../lib/i18n.ts';
import { fetchUserInfo, userInfoQuery } from '../lib/session.ts';
import { loadSiteConfig, siteConfigQuery } from '../lib/siteConfig.ts';
import type { StartupCalls } from '../lib/startupCalls.ts';
import { initColor } from '../lib/theme.ts';
import { applyUserPreferences } from './applyUserPreferences.ts';
import { createQueryClient } from './queryClient.ts';

/**
 * Start-up in this order (docs/behaviour/shell-session-domains.md#states): translations, site config, colour, user info; then the app
 * shows. Both calls are sent at once (two round trips cost seconds on a phone) and applied in order;
 * the entry has usually sent them already (`calls`, lib/startupCalls.ts).
 */
export async function boot(calls: StartupCalls) {
  const configCall = loadSiteConfig(calls.config);
  const userCall = fetchUserInfo(calls.user);
  await initI18n(calls.texts);
  const queryClient = createQueryClient();
  const config = await configCall;
  queryClient.setQueryData(siteConfigQuery.queryKey, config);
  initColor(config?.themeConfig.color);
  const user = await userCall;
  if (user) await applyUserPreferences(user);
  queryClient.setQueryData(userInfoQuery.queryKey, user);
  // Another tab signed in or out, or changed the language: this one starts afresh.
  listenToOtherTabs(() => window.location.reload());
  return queryClient;
}
