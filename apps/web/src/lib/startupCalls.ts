/**
 * The start-up calls (site config, user info), sent by the entry (main.tsx) as soon as it
 * runs, while the start-up chunk is still downloading: on a phone this saves a round trip before
 * the first render (docs/design.md#budgets). app/boot.ts reads the answers through lib/api.ts.
 *
 * The entry also asks for start-up's texts in the visitor's language (the `_lang` cookie), which
 * the start-up chunk does not carry.
 *
 * This module imports nothing statically on purpose: anything it imported would join the start-up
 * chunk and the entry would wait for that chunk again (chunks.ts). The names below are therefore
 * copies; startupCalls.test.ts checks them against the contract, lib/cache.ts, lib/permissions.ts
 * and lib/i18n.ts.
 */
export const WIRE = {
  apiBase: '/p247/',
  requestHeader: 'x-dd-request',
  configCacheKey: '_ddcfg',
  listKinds: 'list/kinds/',
  expiring: 'expiring/',
  languageCookie: '_lang',
  languages: ['es', 'en', 'ca'],
} as const;

type Catalogue = Record<string, string>;

/** Start-up's texts in one language (a chunk per language, bootTexts.ts); Spanish for any other value. */
export function loadBootTexts(language: string): Promise<Catalogue> {
  const load =
    language === 'en'
      ? import('virtual:atalaya/boot-texts-en')
      : language === 'ca'
        ? import('virtual:atalaya/boot-texts-ca')
        : import('virtual:atalaya/boot-texts-es');
  return load.then((module) => module.default);
}

/** The language lib/i18n.ts will start in: the `_lang` cookie's, else the first (Spanish). */
export function cookieLanguage(): string {
  const value = document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${WIRE.languageCookie}=`))
    ?.slice(WIRE.languageCookie.length + 1);
  return (WIRE.languages as readonly string[]).find((language) => language === value) ?? WIRE.languages[0];
}

export interface StartupCalls {
  /** null when the config is cached in this browser (lib/siteConfig.ts reads the cache). */
  config: Promise<Response> | null;
  user: Promise<Response>;
  /**
   * Which lists the user has (GET /list/kinds/, a few bytes whatever the realm's size), which the
   * side menu shows: asked for on every page but the sign-in one, where the frame is not drawn. Without a session it is
   * refused and left unread (app/boot.ts); the screens would otherwise ask for it only after the
   * first render, a round trip later.
   */
  list: Promise<Response> | null;
  /**
   * The dashboard's "expiring soon" list (GET /expiring/), asked for on the dashboard only: the
   * dashboard's query (features/dashboard/expiringQuery.ts) would otherwise send it from the first
   * render, and the card would appear a round trip after the rest of the page, moving it. Left
   * unread like `list` when there is no session.
   */
  expiring: Promise<Response> | null;
  /** Start-up's texts in the language of the cookie, and how to load another's (a language switch). */
  texts: { language: string; catalogue: Promise<Catalogue>; load: (language: string) => Promise<Catalogue> };
}

/** The same requests lib/api.ts would make: same-origin cookie, the CSRF header, an empty form for POST. */
const send = (path: string, method: 'GET' | 'POST') =>
  fetch(`${WIRE.apiBase}${path}`, {
    method,
    credentials: 'same-origin',
    headers: { [WIRE.requestHeader]: '1' },
    body: method === 'POST' ? new URLSearchParams() : undefined,
  });

function configCached() {
  try {
    return localStorage.getItem(WIRE.configCacheKey) !== null;
  } catch {
    return false; // storage disabled: lib/cache.ts cannot read it either
  }
}

export function sendStartupCalls(onLoginPage: boolean, onDashboard = false): StartupCalls {
  return {
    config: configCached() ? null : send('config/get/', 'GET'),
    user: send('user/info/', 'POST'),
    list: onLoginPage ? null : send(WIRE.listKinds, 'GET'),
    expiring: onDashboard ? send(WIRE.expiring, 'GET') : null,
    texts: { language: cookieLanguage(), catalogue: loadBootTexts(cookieLanguage()), load: loadBootTexts },
  };
}
