import type { SiteConfig } from '@atalaya/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { answerOf, fetchData } from './api.ts';
import { CACHE_KEYS, CACHE_TTL_MS, readCache, writeCache } from './cache.ts';
import { endpoints } from './endpoints.ts';

const FALLBACK_LOGO = '/assets/images/logo.png';

/** The cached config (`_ddcfg`) when fresh, else the server's; a failure leaves it unloaded (docs/behaviour/shell-session-domains.md#errors). */
export async function loadSiteConfig(sent?: Promise<Response> | null): Promise<SiteConfig | null> {
  const cached = readCache<SiteConfig>(localStorage, CACHE_KEYS.config);
  if (cached) return cached;
  try {
    // `sent`: the entry's call (lib/startupCalls.ts), already on its way.
    const config = sent ? (await answerOf<SiteConfig>(sent)).data : await fetchData(endpoints.config.get, {});
    writeCache(localStorage, CACHE_KEYS.config, config, CACHE_TTL_MS.config);
    return config;
  } catch {
    return null;
  }
}

export const siteConfigQuery = queryOptions({ queryKey: ['config'], queryFn: () => loadSiteConfig(), staleTime: Number.POSITIVE_INFINITY });

export function useSiteConfig() {
  return useQuery(siteConfigQuery).data ?? null;
}

export const logoOf = (config: SiteConfig | null) => config?.themeConfig.logo || FALLBACK_LOGO;
