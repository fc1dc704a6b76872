import { API_BASE, DEFAULT_LANGUAGE, endpoints, LANGUAGES, REQUEST_HEADER } from '@atalaya/contract';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOOT_TEXTS, merge } from '../locales/boot.ts';
import { CACHE_KEYS } from './cache.ts';
import { storedLanguage } from './i18n.ts';
import { listKindsQuery } from './permissions.ts';
import { recordFetch } from './recordFetch.ts';
import { cookieLanguage, loadBootTexts, sendStartupCalls, WIRE } from './startupCalls.ts';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the start-up calls sent by the entry', () => {
  it('use the same path, header and cache key as the rest of the app (they are copies, see startupCalls.ts)', () => {
    expect(WIRE).toMatchObject({ apiBase: API_BASE, requestHeader: REQUEST_HEADER, configCacheKey: CACHE_KEYS.config });
  });

  it("ask for the endpoint table's config, user info and list kinds calls, with their methods", () => {
    const seen = recordFetch();
    sendStartupCalls(false);
    const asked = seen.map((s) => `${s.method} ${s.url}`);
    const table = [endpoints.config.get, endpoints.account.info, endpoints.lists.kinds];
    expect(asked).toEqual(table.map((e) => `${e.method} ${API_BASE.slice(0, -1)}${e.path}`));
  });

  it("ask for the user's list kinds as the side menu's query does, except on the sign-in page", async () => {
    const seen = recordFetch();
    const calls = sendStartupCalls(false);
    const sent = seen.length;
    await new QueryClient().fetchQuery(listKindsQuery).catch(() => undefined);
    expect(calls.list).not.toBeNull();
    expect(seen).toHaveLength(sent + 1); // the screens' query really went out…
    expect(seen[sent - 1]).toEqual(seen[sent]); // …exactly as the entry's did
    expect(sendStartupCalls(true).list).toBeNull();
  });

  it("ask for start-up's texts in the cookie's language, as lib/i18n.ts reads it, Spanish otherwise", async () => {
    expect(WIRE.languages).toEqual(LANGUAGES);
    expect(WIRE.languages[0]).toBe(DEFAULT_LANGUAGE);
    for (const [cookie, language] of [
      ['_lang=en', 'en'],
      ['a=1; _lang=ca', 'ca'],
      ['_lang=fr', 'es'],
      ['', 'es'],
    ]) {
      vi.stubGlobal('document', { cookie });
      expect(cookieLanguage(), cookie).toBe(language);
      expect(storedLanguage(), cookie).toBe(language);
    }
    const all = merge(BOOT_TEXTS);
    for (const language of LANGUAGES) expect(await loadBootTexts(language)).toEqual(all[language]);
    expect(await loadBootTexts('xx')).toEqual(all.es);
  });
});
